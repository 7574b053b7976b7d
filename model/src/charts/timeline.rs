//! Layout of the node timeline (a Gantt chart of one replication): one row per node, its GPU
//! slots as lanes, provisioning and idle time as the row's background, each attempt as a bar
//! in the lanes of the GPUs it used (first free lanes at its start).

use super::scale::LinearScale;
use crate::model::sim::{AttemptEnd, Timeline};

/// The least room between two hour ticks, px: an "48 h" label at 11 px and a gap.
const TICK_SPACING_PX: f64 = 48.0;

/// One node row.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRow {
    /// Node index.
    pub node: usize,
    /// `reserved`, `on_demand` or `spot`.
    pub kind: &'static str,
    /// Top pixel.
    pub y: f64,
    /// Height in pixels (GPUs × lane height).
    pub height: f64,
    /// Provisioning, as (x, width), if inside the window.
    pub provisioning: Option<(f64, f64)>,
    /// Ready time (idle unless a bar covers it), as (x, width).
    pub ready: Option<(f64, f64)>,
    /// x of the end, and what took the node, when it was lost (spot interruption, hardware
    /// failure, consolidation).
    pub lost_at: Option<(f64, &'static str)>,
}

/// One attempt on one node.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptBar {
    /// Job index.
    pub job: usize,
    /// Its job class (an index).
    pub class: usize,
    /// Left pixel.
    pub x: f64,
    /// Width of the pull and restart part.
    pub setup_width: f64,
    /// Total width.
    pub width: f64,
    /// Top pixel.
    pub y: f64,
    /// Height (its GPUs on this node).
    pub height: f64,
    /// How it ended.
    pub ended: AttemptEnd,
}

/// The whole layout.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineLayout {
    /// Node rows drawn.
    pub rows: Vec<NodeRow>,
    /// Attempt bars drawn.
    pub bars: Vec<AttemptBar>,
    /// Nodes in the window that did not fit in `max_rows`.
    pub hidden_nodes: usize,
    /// Hour ticks: (hours since start, x).
    pub ticks: Vec<(f64, f64)>,
    /// Total height.
    pub height: f64,
}

/// Lays out the part of `t` inside `[window_start_s, window_end_s)` between pixels x0 and x1,
/// `lane_h` pixels per GPU, at most `max_rows` nodes (in request order).
pub fn layout_timeline(
    t: &Timeline,
    window: (i64, i64),
    x0: f64,
    x1: f64,
    lane_h: f64,
    max_rows: usize,
) -> TimelineLayout {
    let (w0, w1) = (window.0, window.1.max(window.0 + 1));
    let scale = LinearScale::new((w0 as f64, w1 as f64), (x0, x1));
    let clip = |a: i64, b: i64| -> Option<(f64, f64)> {
        let (a, b) = (a.max(w0), b.min(w1));
        (b > a).then(|| {
            (
                scale.map(a as f64),
                scale.map(b as f64) - scale.map(a as f64),
            )
        })
    };
    // Each node's row is as tall as its GPUs (pools differ), 4 px between rows.
    let gpus_of = |node: usize| t.nodes[node].gpus.max(1) as usize;
    let visible: Vec<usize> = (0..t.nodes.len())
        .filter(|&i| t.nodes[i].billing_start_s < w1 && t.nodes[i].end_s > w0)
        .collect();
    let shown: Vec<usize> = visible.iter().copied().take(max_rows).collect();
    let mut rows = Vec::new();
    let mut row_of = vec![None; t.nodes.len()];
    let mut y = 0.0;
    for &node in &shown {
        let n = &t.nodes[node];
        row_of[node] = Some(y);
        let height = lane_h * gpus_of(node) as f64;
        rows.push(NodeRow {
            node,
            kind: n.kind,
            y,
            height,
            provisioning: clip(n.billing_start_s, n.ready_s.unwrap_or(n.end_s)),
            ready: n.ready_s.and_then(|r| clip(r, n.end_s)),
            lost_at: n
                .lost_to
                .filter(|_| n.end_s >= w0 && n.end_s <= w1)
                .map(|loss| (scale.map(n.end_s as f64), loss.label())),
        });
        y += height + 4.0;
    }
    // Lanes: per node, when each GPU slot is free again; attempts by start time.
    let mut order: Vec<usize> = (0..t.attempts.len()).collect();
    order.sort_by_key(|&i| (t.attempts[i].start_s, i));
    let mut free_at: Vec<Vec<i64>> = (0..t.nodes.len())
        .map(|node| vec![i64::MIN; gpus_of(node)])
        .collect();
    let mut bars = Vec::new();
    for i in order {
        let a = &t.attempts[i];
        for &(node, gpus) in &a.nodes {
            let gpn = gpus_of(node);
            let g = (gpus as usize).clamp(1, gpn);
            let lanes = &mut free_at[node];
            let first = (0..=gpn - g)
                .find(|&l| lanes[l..l + g].iter().all(|&f| f <= a.start_s))
                .unwrap_or(0);
            for f in &mut lanes[first..first + g] {
                *f = a.end_s;
            }
            let (Some(y), Some((x, width))) = (row_of[node], clip(a.start_s, a.end_s)) else {
                continue;
            };
            let setup_end = scale.map(a.compute_start_s.clamp(w0, w1) as f64);
            bars.push(AttemptBar {
                job: a.job,
                class: a.class,
                x,
                setup_width: (setup_end - x).clamp(0.0, width),
                width,
                y: y + lane_h * first as f64,
                height: lane_h * g as f64,
                ended: a.ended,
            });
        }
    }
    let hours = (w1 - w0) as f64 / 3600.0;
    // At most 12 ticks, and at least TICK_SPACING_PX apart, so that "48 h" labels do not run
    // into each other on a narrow chart.
    let most = ((x1 - x0) / TICK_SPACING_PX).floor().clamp(2.0, 12.0);
    let step_h = [1.0, 2.0, 3.0, 6.0, 12.0, 24.0, 48.0, 168.0]
        .into_iter()
        .find(|s| hours / s <= most)
        .unwrap_or(336.0);
    let ticks = (0..=(hours / step_h) as usize)
        .map(|k| {
            let h = k as f64 * step_h;
            (h, scale.map(w0 as f64 + h * 3600.0))
        })
        .collect();
    TimelineLayout {
        height: y,
        rows,
        bars,
        hidden_nodes: visible.len() - shown.len(),
        ticks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::{AttemptSpan, NodeSpan};

    fn node(start: i64, ready: i64, end: i64, gpus: u32) -> NodeSpan {
        NodeSpan {
            kind: "on_demand",
            requested_s: start,
            billing_start_s: start,
            ready_s: Some(ready),
            end_s: end,
            lost_to: None,
            pool: 0,
            gpus,
        }
    }

    fn attempt(job: usize, node: usize, gpus: u32, start: i64, end: i64) -> AttemptSpan {
        AttemptSpan {
            job,
            class: 0,
            nodes: vec![(node, gpus)],
            start_s: start,
            compute_start_s: start + 10,
            end_s: end,
            ended: AttemptEnd::Finished,
        }
    }

    #[test]
    fn jobs_take_the_first_free_lanes_of_their_node() {
        let t = Timeline {
            gpus_per_node: 4,
            horizon_s: 1_000,
            nodes: vec![node(0, 100, 1_000, 4)],
            attempts: vec![
                attempt(0, 0, 2, 100, 600),
                attempt(1, 0, 1, 100, 300),
                attempt(2, 0, 2, 300, 500), // lanes 0–1 busy until 600: takes 2–3 (lane 2 free at 300)
            ],
        };
        let l = layout_timeline(&t, (0, 1_000), 0.0, 1_000.0, 10.0, 10);
        let ys: Vec<f64> = l.bars.iter().map(|b| b.y).collect();
        assert_eq!(ys, vec![0.0, 20.0, 20.0]);
        assert_eq!(l.rows[0].provisioning, Some((0.0, 100.0)));
        assert_eq!(l.bars[0].setup_width, 10.0);
    }

    #[test]
    fn hour_ticks_keep_their_room_on_a_narrow_chart() {
        let t = Timeline {
            gpus_per_node: 1,
            horizon_s: 48 * 3_600,
            nodes: vec![node(0, 0, 48 * 3_600, 1)],
            attempts: vec![],
        };
        let hours = |x1: f64| -> Vec<f64> {
            layout_timeline(&t, (0, 48 * 3_600), 0.0, x1, 4.0, 30)
                .ticks
                .iter()
                .map(|(h, _)| *h)
                .collect()
        };
        // 562 px (a 640 px chart) holds 11 ticks 48 px apart: every 6 h, 8 steps.
        assert_eq!(
            hours(562.0),
            vec![0.0, 6.0, 12.0, 18.0, 24.0, 30.0, 36.0, 42.0, 48.0]
        );
        // 202 px (a phone) holds 4: every 12 h, 50.5 px apart.
        assert_eq!(hours(202.0), vec![0.0, 12.0, 24.0, 36.0, 48.0]);
    }

    /// Nodes of two pools: a 1-GPU node's row is one lane tall, an 8-GPU node's eight; rows
    /// stack with 4 px between them, and a job takes lanes of its own node.
    #[test]
    fn each_node_is_as_tall_as_its_gpus() {
        let t = Timeline {
            gpus_per_node: 1,
            horizon_s: 100,
            nodes: vec![node(0, 0, 100, 1), node(0, 0, 100, 8)],
            attempts: vec![attempt(0, 1, 8, 0, 50), attempt(1, 0, 1, 0, 50)],
        };
        let l = layout_timeline(&t, (0, 100), 0.0, 100.0, 10.0, 10);
        let rows: Vec<(f64, f64)> = l.rows.iter().map(|r| (r.y, r.height)).collect();
        assert_eq!(rows, vec![(0.0, 10.0), (14.0, 80.0)]);
        assert_eq!(l.height, 98.0);
        let bars: Vec<(f64, f64)> = l.bars.iter().map(|b| (b.y, b.height)).collect();
        assert_eq!(bars, vec![(14.0, 80.0), (0.0, 10.0)]);
    }

    #[test]
    fn rows_beyond_the_limit_are_counted_not_drawn() {
        let t = Timeline {
            gpus_per_node: 1,
            horizon_s: 100,
            nodes: (0..5).map(|_| node(0, 0, 100, 1)).collect(),
            attempts: vec![],
        };
        let l = layout_timeline(&t, (0, 100), 0.0, 100.0, 10.0, 3);
        assert_eq!((l.rows.len(), l.hidden_nodes), (3, 2));
    }
}
