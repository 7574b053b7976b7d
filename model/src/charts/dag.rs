//! A pipeline's stages as a drawing: columns by depth (the longest chain of predecessors
//! before a stage), stages in their order within a column, an arrow from each predecessor.

use crate::model::scenario::Pipeline;

/// Width and height of a stage's box, and the gaps between columns and rows.
pub const BOX_W: f64 = 132.0;
pub const BOX_H: f64 = 26.0;
const COLUMN_GAP: f64 = 36.0;
const ROW_GAP: f64 = 8.0;

/// One stage's box.
#[derive(Debug, Clone, PartialEq)]
pub struct StageBox {
    pub name: String,
    /// Top left corner.
    pub x: f64,
    pub y: f64,
    /// Its column: 0 for a stage after none.
    pub depth: usize,
}

/// An arrow from a predecessor's right edge to a stage's left edge.
#[derive(Debug, Clone, PartialEq)]
pub struct StageEdge {
    pub from: (f64, f64),
    pub to: (f64, f64),
}

/// The drawing of a pipeline.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DagLayout {
    pub boxes: Vec<StageBox>,
    pub edges: Vec<StageEdge>,
    pub width: f64,
    pub height: f64,
}

/// Lays `pipeline` out; a cyclic one (refused by validation) draws its stages in one column
/// with no arrows.
pub fn layout_dag(pipeline: &Pipeline) -> DagLayout {
    let n = pipeline.stages.len();
    if n == 0 {
        return DagLayout::default();
    }
    let preds = pipeline.predecessors();
    let mut depth = vec![0usize; n];
    let acyclic = match pipeline.topological_order() {
        Some(order) => {
            for s in order {
                depth[s] = preds[s].iter().map(|&p| depth[p] + 1).max().unwrap_or(0);
            }
            true
        }
        None => false,
    };
    let columns = depth.iter().max().map_or(0, |d| d + 1);
    let mut rows_in = vec![0usize; columns];
    let mut boxes = Vec::with_capacity(n);
    for (s, stage) in pipeline.stages.iter().enumerate() {
        let d = depth[s];
        let row = rows_in[d];
        rows_in[d] += 1;
        boxes.push(StageBox {
            name: stage.name.clone(),
            x: d as f64 * (BOX_W + COLUMN_GAP),
            y: row as f64 * (BOX_H + ROW_GAP),
            depth: d,
        });
    }
    let edges = if acyclic {
        preds
            .iter()
            .enumerate()
            .flat_map(|(s, after)| {
                let boxes = &boxes;
                after.iter().map(move |&p| StageEdge {
                    from: (boxes[p].x + BOX_W, boxes[p].y + BOX_H / 2.0),
                    to: (boxes[s].x, boxes[s].y + BOX_H / 2.0),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let rows = rows_in.iter().copied().max().unwrap_or(0);
    DagLayout {
        boxes,
        edges,
        width: columns as f64 * (BOX_W + COLUMN_GAP) - COLUMN_GAP,
        height: rows as f64 * (BOX_H + ROW_GAP) - ROW_GAP,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::JobClass;

    #[test]
    fn a_diamond_is_three_columns_with_four_arrows() {
        let stage = |name: &str, after: &[&str]| JobClass {
            name: name.into(),
            after: after.iter().map(|s| s.to_string()).collect(),
            ..JobClass::default()
        };
        let p = Pipeline {
            stages: vec![
                stage("A", &[]),
                stage("B", &["A"]),
                stage("C", &["A"]),
                stage("D", &["B", "C"]),
            ],
            ..Pipeline::default()
        };
        let l = layout_dag(&p);
        let depths: Vec<usize> = l.boxes.iter().map(|b| b.depth).collect();
        assert_eq!(depths, [0, 1, 1, 2]);
        assert_eq!(l.edges.len(), 4);
        assert_eq!(l.width, 3.0 * BOX_W + 2.0 * COLUMN_GAP);
        assert_eq!(l.height, 2.0 * BOX_H + ROW_GAP);
        // Every arrow runs left to right, from a box's right edge to another's left edge.
        assert!(l.edges.iter().all(|e| e.from.0 < e.to.0));
    }
}
