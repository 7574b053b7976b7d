//! The hosted LLM APIs' price lists, compiled in from `data/api_prices.csv` (per-token prices
//! and published rate limits) and `data/api_provisioned.csv` (provisioned throughput). Each row
//! is dated and names its source; a price the provider does not offer is `None`, never zero.

use std::sync::OnceLock;

const PER_TOKEN: &str = include_str!("../../../../data/api_prices.csv");
const PROVISIONED: &str = include_str!("../../../../data/api_provisioned.csv");

/// One provider's per-token offer of one model.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenOffer {
    /// The provider's id (`bedrock`, `azure_foundry`, `vertex`, `together`, …).
    pub provider: String,
    /// The calculator's model id (the LLM table's).
    pub model: String,
    /// Region of the price, where the provider prices by region.
    pub region: String,
    /// USD per million input tokens.
    pub input_usd_per_m: f64,
    /// USD per million output tokens.
    pub output_usd_per_m: f64,
    /// USD per million input tokens read from the provider's prompt cache, if it offers one.
    pub cached_input_usd_per_m: Option<f64>,
    /// USD per million input tokens through the batch API, if it has one.
    pub batch_input_usd_per_m: Option<f64>,
    /// USD per million output tokens through the batch API, if it has one.
    pub batch_output_usd_per_m: Option<f64>,
    /// Requests a minute allowed by default, where published.
    pub requests_per_minute: Option<f64>,
    /// Tokens (input and output) a minute allowed by default, where published.
    pub tokens_per_minute: Option<f64>,
    /// Date of the price.
    pub as_of: String,
    /// Where the row's figures come from.
    pub source: String,
}

/// One provider's provisioned throughput for one model.
#[derive(Debug, Clone, PartialEq)]
pub struct ProvisionedOffer {
    /// The provider's id.
    pub provider: String,
    /// The calculator's model id.
    pub model: String,
    /// What a unit is called (PTU).
    pub unit: String,
    /// Fewest units a deployment has.
    pub min_units: u32,
    /// Units are bought in steps of this many.
    pub unit_step: u32,
    /// Input tokens a minute one unit serves.
    pub input_tpm_per_unit: f64,
    /// Input tokens one output token counts as against the throughput.
    pub output_token_weight: f64,
    /// USD per unit-hour, billed hourly.
    pub usd_per_unit_hour: f64,
    /// USD per unit a month on a one-month reservation.
    pub usd_per_unit_month_1m: Option<f64>,
    /// USD per unit a month on a one-year reservation.
    pub usd_per_unit_month_1y: Option<f64>,
    /// Date of the price.
    pub as_of: String,
    /// Where the row's figures come from.
    pub source: String,
}

/// Every per-token offer, parsed once.
pub fn token_offers() -> &'static [TokenOffer] {
    static ROWS: OnceLock<Vec<TokenOffer>> = OnceLock::new();
    ROWS.get_or_init(|| parse_token_offers(PER_TOKEN).expect("data/api_prices.csv is tested"))
}

/// Every provisioned-throughput offer, parsed once.
pub fn provisioned_offers() -> &'static [ProvisionedOffer] {
    static ROWS: OnceLock<Vec<ProvisionedOffer>> = OnceLock::new();
    ROWS.get_or_init(|| {
        parse_provisioned_offers(PROVISIONED).expect("data/api_provisioned.csv is tested")
    })
}

/// `provider`'s per-token offer of `model`, if it has one.
pub fn token_offer(provider: &str, model: &str) -> Option<&'static TokenOffer> {
    token_offers()
        .iter()
        .find(|o| o.provider == provider && o.model == model)
}

/// `provider`'s provisioned throughput for `model`, if it sells one.
pub fn provisioned_offer(provider: &str, model: &str) -> Option<&'static ProvisionedOffer> {
    provisioned_offers()
        .iter()
        .find(|o| o.provider == provider && o.model == model)
}

/// A data file's rows: its header checked, comments and blank lines skipped, each row split
/// into `columns` cells (a source separates its parts with `;`, never `,`).
fn rows<'a>(
    text: &'a str,
    file: &'a str,
    header: &str,
    columns: usize,
) -> Result<Vec<(usize, Vec<&'a str>)>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    let (_, first) = lines.next().ok_or_else(|| format!("{file} is empty"))?;
    if first != header {
        return Err(format!("{file} header is {first:?}, expected {header:?}"));
    }
    lines
        .map(|(i, line)| {
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            if cells.len() != columns {
                return Err(format!(
                    "{file} line {}: {} cells where the header has {columns} (a source \
                     separates its parts with ';')",
                    i + 1,
                    cells.len()
                ));
            }
            Ok((i + 1, cells))
        })
        .collect()
}

/// A cell: a positive finite number, or `None` when empty.
fn number(cell: &str, file: &str, line: usize, what: &str) -> Result<Option<f64>, String> {
    if cell.is_empty() {
        return Ok(None);
    }
    cell.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(Some)
        .ok_or_else(|| format!("{file} line {line}: {what} {cell:?} is not a positive number"))
}

fn required(cell: &str, file: &str, line: usize, what: &str) -> Result<f64, String> {
    number(cell, file, line, what)?.ok_or_else(|| format!("{file} line {line}: no {what}"))
}

fn text(cell: &str, file: &str, line: usize, what: &str) -> Result<String, String> {
    if cell.is_empty() {
        Err(format!("{file} line {line}: no {what}"))
    } else {
        Ok(cell.to_string())
    }
}

/// Parses `data/api_prices.csv`.
pub fn parse_token_offers(data: &str) -> Result<Vec<TokenOffer>, String> {
    const FILE: &str = "api_prices.csv";
    let header = "provider,model,region,input_usd_per_m,output_usd_per_m,cached_input_usd_per_m,\
                  batch_input_usd_per_m,batch_output_usd_per_m,requests_per_minute,\
                  tokens_per_minute,as_of,source";
    rows(data, FILE, header, 12)?
        .into_iter()
        .map(|(line, c)| {
            let batch_in = number(c[6], FILE, line, "batch input price")?;
            let batch_out = number(c[7], FILE, line, "batch output price")?;
            if batch_in.is_some() != batch_out.is_some() {
                return Err(format!(
                    "{FILE} line {line}: a batch price for input and output, or neither"
                ));
            }
            Ok(TokenOffer {
                provider: text(c[0], FILE, line, "provider")?,
                model: text(c[1], FILE, line, "model")?,
                region: c[2].to_string(),
                input_usd_per_m: required(c[3], FILE, line, "input price")?,
                output_usd_per_m: required(c[4], FILE, line, "output price")?,
                cached_input_usd_per_m: number(c[5], FILE, line, "cached input price")?,
                batch_input_usd_per_m: batch_in,
                batch_output_usd_per_m: batch_out,
                requests_per_minute: number(c[8], FILE, line, "requests a minute")?,
                tokens_per_minute: number(c[9], FILE, line, "tokens a minute")?,
                as_of: text(c[10], FILE, line, "date")?,
                source: text(c[11], FILE, line, "source")?,
            })
        })
        .collect()
}

/// Parses `data/api_provisioned.csv`.
pub fn parse_provisioned_offers(data: &str) -> Result<Vec<ProvisionedOffer>, String> {
    const FILE: &str = "api_provisioned.csv";
    let header = "provider,model,unit,min_units,unit_step,input_tpm_per_unit,\
                  output_token_weight,usd_per_unit_hour,usd_per_unit_month_1m,\
                  usd_per_unit_month_1y,as_of,source";
    rows(data, FILE, header, 12)?
        .into_iter()
        .map(|(line, c)| {
            let whole = |cell: &str, what: &str| -> Result<u32, String> {
                cell.parse::<u32>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("{FILE} line {line}: {what} {cell:?} is not a count"))
            };
            Ok(ProvisionedOffer {
                provider: text(c[0], FILE, line, "provider")?,
                model: text(c[1], FILE, line, "model")?,
                unit: text(c[2], FILE, line, "unit")?,
                min_units: whole(c[3], "minimum units")?,
                unit_step: whole(c[4], "unit step")?,
                input_tpm_per_unit: required(c[5], FILE, line, "input tokens a minute per unit")?,
                output_token_weight: required(c[6], FILE, line, "output token weight")?,
                usd_per_unit_hour: required(c[7], FILE, line, "hourly price")?,
                usd_per_unit_month_1m: number(c[8], FILE, line, "one-month price")?,
                usd_per_unit_month_1y: number(c[9], FILE, line, "one-year price")?,
                as_of: text(c[10], FILE, line, "date")?,
                source: text(c[11], FILE, line, "source")?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::serving::llm::architectures::known;

    #[test]
    fn the_price_files_parse_and_name_known_models() {
        assert!(token_offers().len() >= 10);
        for o in token_offers() {
            assert!(known(&o.model).is_some(), "{} {}", o.provider, o.model);
            assert!(o.as_of.starts_with("20") && o.source.len() > 20);
        }
        for o in provisioned_offers() {
            assert!(known(&o.model).is_some(), "{} {}", o.provider, o.model);
            assert!(o.min_units.is_multiple_of(o.unit_step));
        }
        // Two rows read against the price pages quoted in the files.
        let bedrock = token_offer("bedrock", "llama-3.1-70b").unwrap();
        assert_eq!(
            (bedrock.input_usd_per_m, bedrock.batch_output_usd_per_m),
            (0.72, Some(0.36))
        );
        assert_eq!(bedrock.requests_per_minute, Some(400.0));
        let ptu = provisioned_offer("azure_foundry", "llama-3.1-70b").unwrap();
        assert_eq!(
            (ptu.min_units, ptu.input_tpm_per_unit, ptu.usd_per_unit_hour),
            (100, 8_450.0, 1.0)
        );
    }

    #[test]
    fn a_damaged_row_is_refused_by_line() {
        let header = "provider,model,region,input_usd_per_m,output_usd_per_m,\
                      cached_input_usd_per_m,batch_input_usd_per_m,batch_output_usd_per_m,\
                      requests_per_minute,tokens_per_minute,as_of,source";
        let bad = format!("{header}\nx,llama-3.1-8b,,0,1,,,,,,2026-01-01,a source of words\n");
        assert!(parse_token_offers(&bad).unwrap_err().contains("line 2"));
        let half = format!("{header}\nx,llama-3.1-8b,,1,1,,0.5,,,,2026-01-01,a source of words\n");
        assert!(parse_token_offers(&half)
            .unwrap_err()
            .contains("input and output"));
        let commas = format!("{header}\nx,llama-3.1-8b,,1,1,,,,,,2026-01-01,a, b\n");
        assert!(parse_token_offers(&commas).unwrap_err().contains("';'"));
    }
}
