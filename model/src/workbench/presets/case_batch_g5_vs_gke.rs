//! The `case-batch-g5-vs-gke` preset: Case study (seed 000): 4-GPU G5 spot jobs on AWS Batch
//! reading their data from S3 in another region through a NAT gateway, or beside it, against GKE
//! on L4 spot beside its own copy in Cloud Storage.

use crate::model::scenario::Scenario;

/// Seed 000's Morgan Stanley story as the article states it: AWS Batch on G5 spot, its jobs
/// "pulling from S3", against GKE with "near-zero egress to Cloud Storage when co-located in
/// us-central1". The workload and the two Batch platforms are `data-gravity-egress`'s; GKE
/// reads a copy of the data kept in Cloud Storage beside it (no region to read across, so no
/// transfer; the copy's own one-off transfer is left out), where `data-gravity-egress` has it
/// read the S3 bucket across clouds.
pub(super) fn scenario() -> Scenario {
    let mut s = super::data_gravity_egress::scenario();
    let gke = &mut s.platforms[2];
    gke.name = "GKE beside its data (us-central1)".into();
    gke.region = String::new();
    s
}
