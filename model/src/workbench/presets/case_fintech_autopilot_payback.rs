//! The `case-fintech-autopilot-payback` preset: Case study (seed 000): a fraud-detection fintech's
//! six engineer-months on EKS with Karpenter, recovered by moving to GKE Autopilot: the weeks its
//! monthly saving takes to repay them.

use crate::model::scenario::{OneOff, Scenario};

/// Seed 000's fintech as the article states it: six engineer-months spent on spot handling
/// with Karpenter on EKS, then a move to GKE Autopilot that "recovered the engineering cost
/// in 11 weeks". The payback view compares Autopilot with EKS (what ran), Autopilot carrying
/// the six engineer-months as the cost its monthly saving must repay, so its break-even
/// month is the time that takes. Assumed where it is silent: the workload of
/// `karpenter-vs-autopilot-payback` (60 one-GPU L4 trainings a day, 1 hour median, on spot),
/// the two platform engineers of the fintech's decision memo on EKS (2.0 FTE, the article's
/// "eliminates our two platform engineer FTEs from node management") against Autopilot's 0.1,
/// the move itself free.
pub(super) fn scenario() -> Scenario {
    let mut s = super::karpenter_vs_autopilot_payback::scenario();
    s.platforms[0].one_off = OneOff::default();
    s.platforms[0].ops_fte = 2.0;
    s.platforms[1].one_off = OneOff {
        engineer_months: 6.0,
        usd: 0.0,
    };
    s
}
