//! SageMaker training jobs (ml.* instances).

use super::setting::{set, Val::*};
use super::ProfileFacts;
use crate::model::catalog::InstanceType;
use crate::model::cloud::Fact;
use crate::model::scenario::Scheduler;
use crate::model::scenario::Serving;

/// SageMaker's premium on an instance, %: the ml.* price over the EC2 price of the same
/// instance where the reference data has both (us-west-2 SageMaker training prices from the
/// AWS Price List API, as embedded in a public script, against the EC2 catalog): +40 % on the
/// smallest g5 and g6, +25 % on the mid-sized, +15 % on a p4d; +15 % (the p4d's, the
/// smallest premium seen) where it has none.
pub fn sagemaker_premium_pct(instance_type: &str) -> f64 {
    match instance_type {
        "g5.xlarge" | "g6.xlarge" => 40.0,
        "g5.2xlarge" | "g5.4xlarge" | "g5.12xlarge" | "g6.12xlarge" | "p3.2xlarge" => 25.0,
        _ => 15.0,
    }
}

/// SageMaker's defaults.
pub const SAGEMAKER: ProfileFacts = ProfileFacts {
    new_platform_instance: None,
    own_instances: None,
    scheduler: Scheduler::ManagedJobs,
    places_nodes_together: Fact {
        value: true,
        source: "seed 001: SageMaker places a training job's instances together (92 % at 64 GPUs)",
    },
    serving: Some(Serving {
        // Application Auto Scaling target tracking on CloudWatch: a scale-out waits for its
        // alarm, three one-minute datapoints (assumption: 180 s); scale-in cooldown 300 s,
        // the default for SageMaker endpoint variants (ref: AWS CDK InvocationsScalingProps,
        // scale_in_cooldown); to zero only with inference components, "the provisioning
        // process takes several minutes" (ref: SageMaker developer guide, "Scale an endpoint
        // to zero instances"), so off here.
        scale_up_delay_s: 180.0,
        scale_down_cooldown_s: 300.0,
        metric_period_s: 60.0,
        scale_to_zero: false,
        shares_nodes: None,
        shares_nodes_with_training: false,
    }),
    defaults: &[
        set("service_premium_pct", OfInstance(|i: &InstanceType| sagemaker_premium_pct(&i.name)),
            "ml.* over EC2 prices (AWS Price List API figures in a public script, us-west-2): ml.g5.xlarge and ml.g6.xlarge +40 %, ml.g5.2xlarge, 4xlarge, 12xlarge, ml.g6.12xlarge and ml.p3.2xlarge +25 %, ml.p4d.24xlarge +15 %; others assumed +15 %"),
        set("placement", Choice("exclusive"), "SageMaker gives each training job whole instances of its own"),
        set("provisioning_median_s", Num(360.0), "assumption: fresh instances for every job, a minute slower than a batch service's node"),
        set("provisioning_p90_s", Num(720.0), "assumption: twice the median, as for the other profiles"),
        set("image_cache", Flag(false), "assumption: fresh instances per job, no warm pool"),
        set("warm_pool_window_s", Num(0.0), "assumption: fresh instances per job, no warm pool"),
        set("billing.minimum_s", Num(0.0), "SageMaker bills instance time per second (BillableTimeInSeconds)"),
        set("ops_fte", Num(0.1), "assumption: 0.1 FTE for a fully managed service"),
    ],
};
