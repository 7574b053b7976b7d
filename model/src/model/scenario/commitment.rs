//! What a pool's reserved capacity is committed as: the term (1 or 3 years), how it is paid
//! (all, part or none of it upfront) and the kind of commitment, with the combinations each
//! cloud sells.
//!
//! The monthly TCO stays monthly: reserved nodes cost on-demand less the reserved discount for
//! every second of the horizon, which is the upfront amortised over the term plus whatever is
//! paid monthly. Only the payback view ([`crate::model::payback`]) follows the cash.
//!
//! What each cloud sells is its [`Commitments`](crate::model::cloud::Commitments)
//! (`model/src/model/cloud/`): AWS Reserved Instances and Savings Plans, paid all, partial or
//! no upfront; GCP resource-based committed-use discounts, billed monthly.

use super::{Cloud, ScenarioError};
use serde::{Deserialize, Serialize};

/// How a commitment is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Payment {
    /// Every month of the term (AWS No Upfront; every GCP commitment).
    #[default]
    NoUpfront,
    /// Half the term's cost at its start, the rest monthly (AWS Partial Upfront; the half is
    /// an assumption: AWS sets the split per offering).
    PartialUpfront,
    /// The whole term's cost at its start (AWS All Upfront).
    AllUpfront,
}

impl Payment {
    /// The share of the term's cost paid at its start.
    pub fn upfront_share(self) -> f64 {
        match self {
            Payment::NoUpfront => 0.0,
            Payment::PartialUpfront => 0.5,
            Payment::AllUpfront => 1.0,
        }
    }

    /// What it is called.
    pub fn label(self) -> &'static str {
        match self {
            Payment::NoUpfront => "no upfront",
            Payment::PartialUpfront => "partial upfront",
            Payment::AllUpfront => "all upfront",
        }
    }
}

/// The kind of commitment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Commitment {
    /// Capacity of this instance type: an AWS Reserved Instance, or a GCP resource-based
    /// committed-use discount.
    #[default]
    Resource,
    /// An AWS Savings Plan: dollars an hour for a term (EC2 Instance, Compute or SageMaker).
    SavingsPlan,
    /// A GCP spend-based (flexible) committed-use discount: it does not cover GPUs, so no
    /// GPU pool can be bought with one.
    SpendBased,
}

impl Commitment {
    /// What it is called.
    pub fn label(self) -> &'static str {
        match self {
            Commitment::Resource => "resource commitment",
            Commitment::SavingsPlan => "Savings Plan",
            Commitment::SpendBased => "spend-based committed-use discount",
        }
    }
}

/// Terms a cloud sells, years.
pub const TERMS_YEARS: [u32; 2] = [1, 3];

/// Refuses what `cloud` does not sell: a term other than 1 or 3 years, a kind of commitment
/// or a payment its [`Commitments`](crate::model::cloud::Commitments) do not list (an upfront
/// payment or a Savings Plan on GCP, a spend-based commitment anywhere: GCP's do not cover
/// GPUs, AWS has none). `at` is the purchase's path. Checked only where the pool reserves
/// something is not enough: a file names its terms whether or not it reserves, and a term
/// that cannot be bought is refused either way.
pub fn check(
    cloud: Cloud,
    term_years: u32,
    payment: Payment,
    commitment: Commitment,
    at: &str,
) -> Result<(), ScenarioError> {
    let invalid = |field: &str, reason: String| ScenarioError::Invalid {
        field: format!("{at}.{field}"),
        reason,
    };
    if !TERMS_YEARS.contains(&term_years) {
        return Err(invalid(
            "term_years",
            format!("{term_years} years is not a term sold: commitments run 1 or 3 years"),
        ));
    }
    let sold = &cloud.facts().commitments;
    if !sold.kinds.contains(&commitment) {
        let reason = sold
            .refused
            .iter()
            .find(|(kind, _)| *kind == commitment)
            .map_or_else(
                || format!("{} does not sell a {}", cloud.name(), commitment.label()),
                |(_, why)| (*why).to_string(),
            );
        return Err(invalid("commitment", reason));
    }
    if !sold.payments.contains(&payment) {
        let reason = if sold.payment_refused.is_empty() {
            format!(
                "{} does not sell a commitment paid {}",
                cloud.name(),
                payment.label()
            )
        } else {
            sold.payment_refused.replace("{}", payment.label())
        };
        return Err(invalid("payment", reason));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_each_cloud_sells_is_accepted() {
        let ok = |cloud, term, payment, kind| check(cloud, term, payment, kind, "p").is_ok();
        for payment in [
            Payment::NoUpfront,
            Payment::PartialUpfront,
            Payment::AllUpfront,
        ] {
            for term in [1, 3] {
                assert!(ok(Cloud::Aws, term, payment, Commitment::Resource));
                assert!(ok(Cloud::Aws, term, payment, Commitment::SavingsPlan));
                assert!(!ok(Cloud::Aws, term, payment, Commitment::SpendBased));
                assert_eq!(
                    ok(Cloud::Gcp, term, payment, Commitment::Resource),
                    payment == Payment::NoUpfront
                );
                assert!(!ok(Cloud::Gcp, term, payment, Commitment::SavingsPlan));
                assert!(!ok(Cloud::Gcp, term, payment, Commitment::SpendBased));
            }
            assert!(!ok(Cloud::Aws, 2, payment, Commitment::Resource));
        }
        let e = check(
            Cloud::Aws,
            2,
            Payment::NoUpfront,
            Commitment::Resource,
            "x.purchase",
        );
        let message = e.unwrap_err().to_string();
        assert!(message.contains("x.purchase.term_years"), "{message}");
        let e = check(
            Cloud::Gcp,
            1,
            Payment::NoUpfront,
            Commitment::SpendBased,
            "x.purchase",
        );
        let message = e.unwrap_err().to_string();
        assert!(message.contains("do not cover GPUs"), "{message}");
    }
}
