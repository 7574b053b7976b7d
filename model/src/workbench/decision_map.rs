//! The decision map: which platform wins across a grid of two inputs.
//!
//! The user picks two of the page's slider inputs (any [`Knob`] with a slider); the map runs
//! the scenario at the middle of each cell of a [`MAP_SIZE`] × [`MAP_SIZE`] grid over their
//! ranges and names each cell's leader on the verdict's metric, with the same rule as the
//! verdict: the lowest median, named the winner ("decisive") when it is lower than every
//! other platform in at least [`DECISIVE_SHARE`] of the paired replications.
//!
//! It is computed progressively: first the [`COARSE_SIZE`] × [`COARSE_SIZE`] cells at the
//! middle of each 3 × 3 block (each shades its block until the block's other cells are in),
//! then the rest. Each cell runs [`MAP_REPS`] replications (common random numbers: the same
//! replication seeds in every cell), fewer than the main run, which the page says.
//!
//! The map's settings travel in the link beside the scenario (`map=…`), not in it, so no
//! scenario, report or golden fingerprint changes with them.

use super::report::csv_cell;
use super::verdict::{verdict, VerdictMetric, DECISIVE_SHARE};
use super::verdict_basis::VerdictBasis;
use crate::format::trim_number;
use crate::model::knobs::{knob, Knob, KNOBS};
use crate::model::monte_carlo::{run_replication, Results};
use crate::model::scenario::{Scenario, ValidScenario};
use crate::model::sim::PlatformOutcome;
use crate::model::step::{Step, Stepped};
use serde::{Deserialize, Serialize};

/// Cells on each side of the full map.
pub const MAP_SIZE: usize = 12;
/// Cells on each side of the coarse pass.
pub const COARSE_SIZE: usize = 4;
/// Replications per cell.
pub const MAP_REPS: u32 = 16;

/// Fine cells on each side of one coarse block.
const BLOCK: usize = MAP_SIZE / COARSE_SIZE;

/// One axis of the map: a slider input and the range it spans.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapAxis {
    /// The knob's identifier ([`Knob::id`]).
    pub knob: String,
    /// Left or bottom edge of the grid, in the knob's unit.
    pub from: f64,
    /// Right or top edge of the grid.
    pub to: f64,
}

impl MapAxis {
    /// The knob's whole slider range.
    pub fn whole(knob: &Knob) -> Option<MapAxis> {
        knob.slider().map(|s| MapAxis {
            knob: knob.id.to_string(),
            from: s.min,
            to: s.max,
        })
    }

    /// The range a map takes for `knob` when it is chosen for `scenario`: the slider's whole
    /// range, but traffic only up to four times the scenario's own (at least 1 req/s): its
    /// slider runs to 5,000 req/s, where a service of 100 would spend the map on loads it never
    /// sees, and slowly (replicas by the thousand in every cell).
    pub fn chosen(knob: &Knob, scenario: &Scenario) -> Option<MapAxis> {
        let mut axis = MapAxis::whole(knob)?;
        if knob.id == "traffic" {
            let own = (knob.get)(scenario);
            axis.to = (4.0 * own).clamp(1.0, axis.to);
        }
        Some(axis)
    }

    /// The knob this axis varies.
    pub fn knob(&self) -> Option<&'static Knob> {
        knob(&self.knob)
    }

    /// The input's value at the middle of cell `i` of `n`.
    pub fn value(&self, i: usize, n: usize) -> f64 {
        self.from + (i as f64 + 0.5) * (self.to - self.from) / n as f64
    }

    /// Where `value` falls on the axis, in cells from the left or bottom edge (0 to `n`).
    pub fn position(&self, value: f64, n: usize) -> f64 {
        (value - self.from) / (self.to - self.from) * n as f64
    }

    /// The label with its unit, e.g. "Spot interruption rate (per node-hour)".
    pub fn label(&self) -> String {
        self.knob()
            .map(|k| format!("{} ({})", k.chart_label, k.unit))
            .unwrap_or_else(|| self.knob.clone())
    }
}

/// What the map shows: its two inputs and the metric that ranks the platforms.
#[derive(Debug, Clone, PartialEq)]
pub struct MapSettings {
    /// The horizontal input.
    pub x: MapAxis,
    /// The vertical input.
    pub y: MapAxis,
    /// What the platforms are ranked by (the verdict's, $/useful GPU-hour, by default).
    pub metric: VerdictMetric,
}

/// The inputs a map can vary for `scenario`: the knobs with a slider that mean something for
/// it.
pub fn map_knobs(scenario: &Scenario) -> Vec<&'static Knob> {
    KNOBS
        .iter()
        .filter(|k| k.slider().is_some() && (k.when)(scenario))
        .collect()
}

impl MapSettings {
    /// The map a scenario opens with: the spot interruption rate across, utilization up (a
    /// serving scenario: traffic across, the scale-up delay up); the first two inputs it has
    /// otherwise.
    pub fn default_for(scenario: &Scenario) -> Option<MapSettings> {
        let knobs = map_knobs(scenario);
        let pick = |id: &str| knobs.iter().find(|k| k.id == id).copied();
        let (x, y) = match (pick("spot_interruption_rate"), pick("utilization")) {
            (Some(x), Some(y)) => (x, y),
            _ => match (pick("traffic"), pick("scale_up_delay")) {
                (Some(x), Some(y)) => (x, y),
                _ => (*knobs.first()?, *knobs.get(1)?),
            },
        };
        Some(MapSettings {
            x: MapAxis::chosen(x, scenario)?,
            y: MapAxis::chosen(y, scenario)?,
            metric: VerdictMetric::default(),
        })
    }

    /// Whether an input of these settings is unknown or means nothing for `scenario` (a newly
    /// opened scenario without spot, jobs or services): then the map takes the scenario's own
    /// inputs instead. Other refusals are shown.
    pub fn inputs_unused_by(&self, scenario: &Scenario) -> bool {
        [&self.x, &self.y]
            .iter()
            .any(|a| a.knob().is_none_or(|k| !(k.when)(scenario)))
    }

    /// Why these settings cannot map `scenario`, if they cannot.
    pub fn check(&self, scenario: &Scenario) -> Result<(), String> {
        if self.x.knob == self.y.knob {
            return Err("Choose two different inputs for the map's axes.".to_string());
        }
        for axis in [&self.x, &self.y] {
            let Some(k) = axis.knob() else {
                return Err(format!("The map has no input \"{}\".", axis.knob));
            };
            let Some(slider) = k.slider() else {
                return Err(format!("{} has no slider to map.", k.label));
            };
            if !(k.when)(scenario) {
                return Err(format!("{} means nothing for this scenario.", k.label));
            }
            if !(axis.from.is_finite() && axis.to.is_finite()) || axis.from >= axis.to {
                return Err(format!(
                    "The map's range of {} must run from a lower to a higher value.",
                    k.label
                ));
            }
            if axis.from < slider.min || axis.to > slider.max {
                return Err(format!(
                    "The map's range of {} must lie within {} to {} {}.",
                    k.label,
                    trim_number(slider.min),
                    trim_number(slider.max),
                    k.unit
                ));
            }
        }
        Ok(())
    }

    /// The link's part: `map=<x>:<from>:<to>,<y>:<from>:<to>[,tco]`.
    pub fn link_part(&self) -> String {
        let axis = |a: &MapAxis| format!("{}:{}:{}", a.knob, a.from, a.to);
        let metric = if self.metric == VerdictMetric::default() {
            String::new()
        } else {
            format!(",{}", self.metric.key())
        };
        format!("map={},{}{metric}", axis(&self.x), axis(&self.y))
    }

    /// The settings of a link's `map=` value, or why it cannot be read.
    pub fn from_link_value(value: &str) -> Result<MapSettings, String> {
        // A link passed through a mail or chat program may come back percent-encoded.
        let value = value
            .replace("%2C", ",")
            .replace("%2c", ",")
            .replace("%3A", ":")
            .replace("%3a", ":");
        let parts: Vec<&str> = value.split(',').collect();
        let axis = |text: &str| -> Result<MapAxis, String> {
            let fields: Vec<&str> = text.split(':').collect();
            let k = fields
                .first()
                .and_then(|id| knob(id))
                .filter(|k| k.slider().is_some())
                .ok_or_else(|| {
                    format!(
                        "\"{}\" is not an input the map can vary",
                        super::shorten(40, fields.first().unwrap_or(&""))
                    )
                })?;
            let mut axis = MapAxis::whole(k).ok_or("no slider")?;
            if let [_, from, to] = fields.as_slice() {
                match (from.parse::<f64>(), to.parse::<f64>()) {
                    (Ok(f), Ok(t)) if f.is_finite() && t.is_finite() => {
                        (axis.from, axis.to) = (f, t)
                    }
                    _ => return Err(format!("the range of {} is not two numbers", k.id)),
                }
            } else if fields.len() != 1 {
                return Err(format!("{} needs both ends of its range or neither", k.id));
            }
            Ok(axis)
        };
        let (x, y, metric) = match parts.as_slice() {
            [x, y] => (axis(x)?, axis(y)?, VerdictMetric::default()),
            [x, y, m] => {
                let metric = VerdictMetric::from_key(m).ok_or_else(|| {
                    let keys: Vec<&str> = VerdictMetric::all().map(VerdictMetric::key).collect();
                    format!(
                        "\"{}\" is not a metric ({})",
                        super::shorten(20, m),
                        keys.join(", ")
                    )
                })?;
                (axis(x)?, axis(y)?, metric)
            }
            _ => return Err("it names two inputs and, optionally, a metric".to_string()),
        };
        Ok(MapSettings { x, y, metric })
    }

    /// The scenario at cell (`col`, `row`): both inputs set to the cell's middle, with
    /// [`MAP_REPS`] replications.
    pub fn cell_scenario(
        &self,
        scenario: &Scenario,
        col: usize,
        row: usize,
    ) -> Result<ValidScenario, String> {
        let mut s = scenario.clone();
        for (axis, i) in [(&self.x, col), (&self.y, row)] {
            let k = axis.knob().ok_or("unknown input")?;
            (k.set)(&mut s, axis.value(i, MAP_SIZE));
        }
        s.replications = MAP_REPS;
        ValidScenario::new(s).map_err(|e| e.to_string())
    }
}

/// One cell's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapCell {
    /// Column, from the left (the horizontal input's low end).
    pub col: u8,
    /// Row, from the bottom (the vertical input's low end).
    pub row: u8,
    /// The platform with the lowest median (index in the scenario), if any did useful work.
    pub leader: Option<u8>,
    /// Its strongest rival: the platform it is lower than least often.
    pub rival: Option<u8>,
    /// The share of replications in which the leader is lower than the rival (1 with no
    /// rival).
    pub share: f64,
    /// The leader's median on the metric.
    pub value: Option<f64>,
    /// Why the cell could not run, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl MapCell {
    /// The leader is lower than every other platform in at least [`DECISIVE_SHARE`] of the
    /// replications.
    pub fn decisive(&self) -> bool {
        self.leader.is_some() && self.share >= DECISIVE_SHARE
    }

    /// The cell's answer from its replications' outcomes.
    fn of(
        col: usize,
        row: usize,
        scenario: &Scenario,
        outcomes: &[Vec<PlatformOutcome>],
        metric: VerdictMetric,
    ) -> MapCell {
        let results = Results::from_outcomes(scenario, outcomes);
        let v = verdict(&results, &VerdictBasis::of(scenario).ranking_by(metric));
        let index = |name: &Option<String>| {
            name.as_ref()
                .and_then(|n| scenario.platforms.iter().position(|p| &p.name == n))
                .map(|i| i as u8)
        };
        let leader = index(&v.leader);
        MapCell {
            col: col as u8,
            row: row as u8,
            leader,
            rival: index(&v.rival),
            share: v.share.unwrap_or(if leader.is_some() { 1.0 } else { 0.0 }),
            value: leader.and_then(|i| metric.value(&results.platforms[usize::from(i)])),
            error: None,
        }
    }
}

/// The order cells are computed in: the coarse pass (the middle cell of each 3 × 3 block),
/// then every other cell, row by row.
pub fn cell_order() -> Vec<(usize, usize)> {
    let middle = |i: usize| i % BLOCK == BLOCK / 2;
    let all = (0..MAP_SIZE).flat_map(|row| (0..MAP_SIZE).map(move |col| (col, row)));
    let coarse = all.clone().filter(|&(c, r)| middle(c) && middle(r));
    let rest = all.filter(|&(c, r)| !(middle(c) && middle(r)));
    coarse.chain(rest).collect()
}

/// The coarse cell whose answer shades (`col`, `row`) until its own is in.
pub fn coarse_cell_of(col: usize, row: usize) -> (usize, usize) {
    (
        col / BLOCK * BLOCK + BLOCK / 2,
        row / BLOCK * BLOCK + BLOCK / 2,
    )
}

/// The map as a resumable computation: one replication of one cell per step.
#[derive(Debug, Clone)]
pub struct DecisionMapRun {
    base: Scenario,
    settings: MapSettings,
    order: Vec<(usize, usize)>,
    /// The cell being computed (index in `order`), its scenario and outcomes so far.
    next: usize,
    current: Option<Result<ValidScenario, String>>,
    outcomes: Vec<Vec<PlatformOutcome>>,
    cells: Vec<MapCell>,
}

impl DecisionMapRun {
    /// Prepares the map of `scenario`, or says why these settings cannot map it.
    pub fn new(scenario: &Scenario, settings: MapSettings) -> Result<DecisionMapRun, String> {
        scenario.validate().map_err(|e| e.to_string())?;
        settings.check(scenario)?;
        Ok(DecisionMapRun {
            base: scenario.clone(),
            settings,
            order: cell_order(),
            next: 0,
            current: None,
            outcomes: Vec::new(),
            cells: Vec::new(),
        })
    }

    /// The cells done, in the order computed.
    pub fn cells(&self) -> &[MapCell] {
        &self.cells
    }

    /// Cells done.
    pub fn done_cells(&self) -> usize {
        self.cells.len()
    }

    /// Every cell is done.
    pub fn is_done(&self) -> bool {
        self.cells.len() == self.order.len()
    }

    /// Replications run so far and in all (for the progress bar).
    pub fn progress(&self) -> (u32, u32) {
        let total = self.order.len() as u32 * MAP_REPS;
        (
            self.cells.len() as u32 * MAP_REPS + self.outcomes.len() as u32,
            total,
        )
    }
}

impl Step for DecisionMapRun {
    fn step(&mut self) -> Stepped {
        let Some(&(col, row)) = self.order.get(self.next) else {
            return Stepped::Complete;
        };
        let current = self
            .current
            .get_or_insert_with(|| self.settings.cell_scenario(&self.base, col, row));
        let finished = match current {
            Ok(s) => {
                self.outcomes
                    .push(run_replication(s, self.outcomes.len() as u64));
                (self.outcomes.len() as u32 >= MAP_REPS)
                    .then(|| MapCell::of(col, row, s, &self.outcomes, self.settings.metric))
            }
            Err(e) => Some(MapCell {
                col: col as u8,
                row: row as u8,
                leader: None,
                rival: None,
                share: 0.0,
                value: None,
                error: Some(e.clone()),
            }),
        };
        let Some(cell) = finished else {
            return Stepped::More;
        };
        self.cells.push(cell);
        self.outcomes.clear();
        self.current = None;
        self.next += 1;
        if self.is_done() {
            Stepped::Complete
        } else if self.next == COARSE_SIZE * COARSE_SIZE {
            Stepped::AnswerNow // the coarse pass goes on screen at once
        } else {
            Stepped::More
        }
    }
}

/// The map as drawn: every cell's answer, a coarse cell's standing in for the cells of its
/// block not yet computed (`None` before the coarse pass has reached it).
pub fn shaded_grid(cells: &[MapCell]) -> Vec<Vec<Option<&MapCell>>> {
    let mut own: Vec<Vec<Option<&MapCell>>> = vec![vec![None; MAP_SIZE]; MAP_SIZE];
    for cell in cells {
        if let Some(slot) = own
            .get_mut(usize::from(cell.row))
            .and_then(|r| r.get_mut(usize::from(cell.col)))
        {
            *slot = Some(cell);
        }
    }
    (0..MAP_SIZE)
        .map(|row| {
            (0..MAP_SIZE)
                .map(|col| {
                    own[row][col].or_else(|| {
                        let (c, r) = coarse_cell_of(col, row);
                        own[r][c]
                    })
                })
                .collect()
        })
        .collect()
}

/// A break-even segment on the grid, in cells ((0, 0) the bottom-left corner): an edge
/// between two neighbouring cells whose leaders differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Boundary {
    /// One end (column, row coordinates).
    pub from: (f64, f64),
    /// The other end.
    pub to: (f64, f64),
}

/// The break-even lines of a shaded grid: every edge where the leader changes.
pub fn boundaries(grid: &[Vec<Option<&MapCell>>]) -> Vec<Boundary> {
    // Only between cells that both have a leader: a cell not yet computed, refused, or where
    // no platform did useful work has no side of a break-even.
    let leader = |col: usize, row: usize| grid[row][col].and_then(|c| c.leader);
    let mut out = Vec::new();
    for row in 0..MAP_SIZE {
        for col in 0..MAP_SIZE {
            let Some(here) = leader(col, row) else {
                continue;
            };
            if col + 1 < MAP_SIZE && leader(col + 1, row).is_some_and(|l| l != here) {
                let x = (col + 1) as f64;
                out.push(Boundary {
                    from: (x, row as f64),
                    to: (x, (row + 1) as f64),
                });
            }
            if row + 1 < MAP_SIZE && leader(col, row + 1).is_some_and(|l| l != here) {
                let y = (row + 1) as f64;
                out.push(Boundary {
                    from: (col as f64, y),
                    to: ((col + 1) as f64, y),
                });
            }
        }
    }
    out
}

/// The map as CSV: one row per cell, with both inputs' values at its middle; `platforms` are
/// the names of the scenario's platforms the cells' indices refer to.
pub fn map_csv(settings: &MapSettings, platforms: &[String], cells: &[MapCell]) -> String {
    let name = |i: Option<u8>| {
        i.and_then(|i| platforms.get(usize::from(i)))
            .map(|p| csv_cell(p))
            .unwrap_or_default()
    };
    let metric = format!("leader_{}", settings.metric.report_key());
    let mut out = format!(
        "{},{},leader,rival,leader_lower_share,decisive,{metric},replications,error\n",
        csv_cell(&settings.x.label()),
        csv_cell(&settings.y.label())
    );
    let mut sorted: Vec<&MapCell> = cells.iter().collect();
    sorted.sort_by_key(|c| (c.row, c.col));
    for c in sorted {
        out += &format!(
            "{},{},{},{},{},{},{},{MAP_REPS},{}\n",
            settings.x.value(usize::from(c.col), MAP_SIZE),
            settings.y.value(usize::from(c.row), MAP_SIZE),
            name(c.leader),
            name(c.rival),
            c.share,
            c.decisive(),
            c.value.map(|v| v.to_string()).unwrap_or_default(),
            c.error.as_deref().map(csv_cell).unwrap_or_default()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_coarse_pass_is_the_middle_of_each_block_and_every_cell_comes_once() {
        let order = cell_order();
        assert_eq!(order.len(), 144);
        let coarse: Vec<_> = order[..16].to_vec();
        assert!(coarse
            .iter()
            .all(|&(c, r)| [1, 4, 7, 10].contains(&c) && [1, 4, 7, 10].contains(&r)));
        let mut seen = order.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 144);
        assert_eq!(coarse_cell_of(0, 11), (1, 10));
        assert_eq!(coarse_cell_of(5, 3), (4, 4));
    }

    #[test]
    fn an_axis_places_values_at_cell_middles() {
        let axis = MapAxis {
            knob: "spot_interruption_rate".into(),
            from: 0.0,
            to: 0.12,
        };
        // 12 cells of 0.01: the first middle 0.005, the last 0.115.
        assert!((axis.value(0, 12) - 0.005).abs() < 1e-15);
        assert!((axis.value(11, 12) - 0.115).abs() < 1e-15);
        assert!((axis.position(0.06, 12) - 6.0).abs() < 1e-12);
    }

    #[test]
    fn settings_read_back_from_the_link_and_bad_ones_say_why() {
        let s = Scenario::default();
        let mut settings = MapSettings::default_for(&s).unwrap();
        assert_eq!(settings.x.knob, "spot_interruption_rate");
        assert_eq!(settings.y.knob, "utilization");
        settings.x.to = 0.05;
        settings.metric = VerdictMetric::MONTHLY_TCO;
        let part = settings.link_part();
        assert_eq!(
            part,
            "map=spot_interruption_rate:0:0.05,utilization:5:150,tco"
        );
        let back = MapSettings::from_link_value(part.trim_start_matches("map=")).unwrap();
        assert_eq!(back, settings);
        // Percent-encoded, as a mail program may pass it on.
        let encoded = "spot_interruption_rate%3A0%3A0.05%2Cutilization%3A5%3A150%2Ctco";
        assert_eq!(MapSettings::from_link_value(encoded).unwrap(), settings);
        // One name alone takes the slider's whole range.
        let whole = MapSettings::from_link_value("fte_cost,egress_price").unwrap();
        assert_eq!((whole.x.from, whole.x.to), (0.0, 600_000.0));
        for (bad, says) in [
            ("nothing,utilization", "not an input"),
            ("utilization", "two inputs"),
            ("utilization:1,fte_cost", "both ends"),
            ("utilization:a:b,fte_cost", "not two numbers"),
            ("utilization,fte_cost,median", "not a metric"),
            ("utilization:5:inf,fte_cost", "not two numbers"),
            ("utilization:NaN:100,fte_cost", "not two numbers"),
        ] {
            let e = MapSettings::from_link_value(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
        let same = MapSettings::from_link_value("fte_cost,fte_cost").unwrap();
        assert!(same.check(&s).unwrap_err().contains("two different"));
        let outside = MapSettings::from_link_value("utilization:0:150,fte_cost").unwrap();
        assert!(outside.check(&s).unwrap_err().contains("within 5 to 150 %"));
        let reversed = MapSettings::from_link_value("utilization:90:20,fte_cost").unwrap();
        assert!(reversed
            .check(&s)
            .unwrap_err()
            .contains("lower to a higher"));
        // A service's traffic is mapped up to four times its own: 0 to 120 req/s at 30.
        let mut serving = s.clone();
        let mut service = crate::model::scenario::Service::default();
        service.traffic.mean_rps = 30.0;
        serving.services = vec![service];
        let traffic = MapAxis::chosen(knob("traffic").unwrap(), &serving).unwrap();
        assert_eq!((traffic.from, traffic.to), (0.0, 120.0));
        // The serving inputs mean nothing to a training scenario.
        let serving = MapSettings::from_link_value("traffic,fte_cost").unwrap();
        assert!(serving.check(&s).unwrap_err().contains("means nothing"));
        assert!(serving.inputs_unused_by(&s));
        assert!(!outside.inputs_unused_by(&s) && !same.inputs_unused_by(&s));
    }

    fn cell(col: u8, row: u8, leader: u8) -> MapCell {
        MapCell {
            col,
            row,
            leader: Some(leader),
            rival: None,
            share: 1.0,
            value: Some(1.0),
            error: None,
        }
    }

    #[test]
    fn coarse_cells_shade_their_blocks_and_boundaries_follow_the_leader() {
        // The coarse pass only: leader 0 left of column 6, leader 1 from it.
        let cells: Vec<MapCell> = cell_order()[..16]
            .iter()
            .map(|&(c, r)| cell(c as u8, r as u8, u8::from(c >= 6)))
            .collect();
        let grid = shaded_grid(&cells);
        assert_eq!(grid[0][2].unwrap().leader, Some(0));
        assert_eq!(grid[11][6].unwrap().leader, Some(1));
        // One vertical line at x = 6, 12 unit segments.
        let lines = boundaries(&grid);
        assert_eq!(lines.len(), 12);
        assert!(lines.iter().all(|b| b.from.0 == 6.0 && b.to.0 == 6.0));
        // A fine cell overrides its block's coarse shade: (5, 0) now leads with 1.
        let mut more = cells.clone();
        more.push(cell(5, 0, 1));
        let lines = boundaries(&shaded_grid(&more));
        assert!(lines.contains(&Boundary {
            from: (5.0, 0.0),
            to: (5.0, 1.0)
        }));
        assert!(lines.contains(&Boundary {
            from: (5.0, 1.0),
            to: (6.0, 1.0)
        }));
        // A cell where no platform did useful work is on no break-even.
        let mut idle = cells.clone();
        idle.push(MapCell {
            leader: None,
            rival: None,
            ..cell(2, 0, 0)
        });
        let lines = boundaries(&shaded_grid(&idle));
        assert_eq!(lines.len(), 12, "{lines:?}");
    }

    #[test]
    fn the_csv_has_a_row_per_cell_with_the_inputs_at_its_middle() {
        let s = Scenario::default();
        let settings =
            MapSettings::from_link_value("spot_interruption_rate:0:0.12,fte_cost").unwrap();
        let names: Vec<String> = s.platforms.iter().map(|p| p.name.clone()).collect();
        let text = map_csv(&settings, &names, &[cell(1, 0, 0)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("Spot interruption rate (per node-hour),"));
        // Column 1 of 12 over 0–0.12: 0.015; row 0 of 12 over 0–600,000: 25,000.
        assert!(
            lines[1].starts_with(&format!(
                "0.015,25000,{},,1,true,1,16,",
                s.platforms[0].name
            )),
            "{}",
            lines[1]
        );
    }
}
