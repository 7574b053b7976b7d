//! Which orchestrator profile a platform's defaults came from, and its cloud. The profiles'
//! defaults and their sources are in [`crate::model::platforms`], a file each; here is what
//! a scenario says of them.

use super::Cloud;
use serde::{Deserialize, Serialize};

/// The orchestrators the calculator compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// AWS Batch on EC2.
    AwsBatch,
    /// SageMaker training jobs (ml.* instances).
    Sagemaker,
    /// EKS with Karpenter and Volcano.
    Eks,
    /// GKE Autopilot (GPU pods billed on the node's Compute Engine price plus a premium).
    GkeAutopilot,
    /// GKE Standard.
    GkeStandard,
    /// AWS ParallelCluster (Slurm).
    ParallelCluster,
    /// A reserved, static cluster: always on, no autoscaling.
    ReservedCluster,
    /// Cloud Run with a GPU: one L4 per instance, billed for the instance's whole life,
    /// scaling to zero.
    CloudRun,
    /// AKS with Kueue.
    Aks,
    /// Azure Machine Learning: jobs on compute clusters, and managed online endpoints.
    AzureMl,
    /// Azure Batch.
    AzureBatch,
    /// Slurm on Azure (CycleCloud Workspace for Slurm).
    CycleCloudSlurm,
    /// CoreWeave Kubernetes Service.
    CoreweaveCks,
    /// Slurm on CoreWeave (SUNK, Slurm on Kubernetes).
    CoreweaveSunk,
    /// Lambda's on-demand instances, each job on instances of its own.
    LambdaOnDemand,
    /// A Lambda 1-Click Cluster: reserved H100 nodes on InfiniBand, with managed Slurm.
    Lambda1cc,
    /// Nebius Managed Service for Kubernetes.
    NebiusMk8s,
    /// Slurm on Nebius (Managed Soperator).
    NebiusSoperator,
    /// A hosted LLM API (Amazon Bedrock, Azure AI Foundry, Vertex AI, Together, Fireworks,
    /// DeepInfra): no nodes, billed per token or for provisioned throughput. Not in
    /// [`Profile::ALL`], whose profiles all run nodes.
    HostedApi,
}

impl Profile {
    /// Every profile, in display order.
    pub const ALL: [Profile; 18] = [
        Profile::AwsBatch,
        Profile::Sagemaker,
        Profile::Eks,
        Profile::GkeAutopilot,
        Profile::GkeStandard,
        Profile::ParallelCluster,
        Profile::ReservedCluster,
        Profile::CloudRun,
        Profile::Aks,
        Profile::AzureMl,
        Profile::AzureBatch,
        Profile::CycleCloudSlurm,
        Profile::CoreweaveCks,
        Profile::CoreweaveSunk,
        Profile::LambdaOnDemand,
        Profile::Lambda1cc,
        Profile::NebiusMk8s,
        Profile::NebiusSoperator,
    ];

    /// Every profile: those of nodes ([`Profile::ALL`]), then the hosted API.
    pub const EVERY: [Profile; 19] = {
        let mut out = [Profile::HostedApi; 19];
        let mut i = 0;
        while i < Profile::ALL.len() {
            out[i] = Profile::ALL[i];
            i += 1;
        }
        out
    };

    /// Whether it is the hosted API, which runs no nodes.
    pub fn is_hosted_api(self) -> bool {
        self == Profile::HostedApi
    }

    /// Identifier used in scenarios (`profile` field).
    pub fn id(self) -> &'static str {
        match self {
            Profile::AwsBatch => "aws_batch",
            Profile::Sagemaker => "sagemaker",
            Profile::Eks => "eks",
            Profile::GkeAutopilot => "gke_autopilot",
            Profile::GkeStandard => "gke_standard",
            Profile::ParallelCluster => "parallel_cluster",
            Profile::ReservedCluster => "reserved_cluster",
            Profile::CloudRun => "cloud_run",
            Profile::Aks => "aks",
            Profile::AzureMl => "azure_ml",
            Profile::AzureBatch => "azure_batch",
            Profile::CycleCloudSlurm => "cyclecloud_slurm",
            Profile::CoreweaveCks => "coreweave_cks",
            Profile::CoreweaveSunk => "coreweave_sunk",
            Profile::LambdaOnDemand => "lambda_on_demand",
            Profile::Lambda1cc => "lambda_1cc",
            Profile::NebiusMk8s => "nebius_mk8s",
            Profile::NebiusSoperator => "nebius_soperator",
            Profile::HostedApi => "hosted_api",
        }
    }

    /// Human name.
    pub fn label(self) -> &'static str {
        match self {
            Profile::AwsBatch => "AWS Batch",
            Profile::Sagemaker => "SageMaker training",
            Profile::Eks => "EKS (Karpenter + Volcano)",
            Profile::GkeAutopilot => "GKE Autopilot",
            Profile::GkeStandard => "GKE Standard",
            Profile::ParallelCluster => "AWS ParallelCluster (Slurm)",
            Profile::ReservedCluster => "Reserved static cluster",
            Profile::CloudRun => "Cloud Run (GPU)",
            Profile::Aks => "AKS (Kueue)",
            Profile::AzureMl => "Azure Machine Learning",
            Profile::AzureBatch => "Azure Batch",
            Profile::CycleCloudSlurm => "Slurm on Azure (CycleCloud)",
            Profile::CoreweaveCks => "CoreWeave Kubernetes (CKS)",
            Profile::CoreweaveSunk => "Slurm on CoreWeave (SUNK)",
            Profile::LambdaOnDemand => "Lambda on-demand instances",
            Profile::Lambda1cc => "Lambda 1-Click Cluster",
            Profile::NebiusMk8s => "Nebius Managed Kubernetes",
            Profile::NebiusSoperator => "Slurm on Nebius (Soperator)",
            Profile::HostedApi => "Hosted LLM API",
        }
    }

    /// The profile with this identifier.
    pub fn from_id(id: &str) -> Option<Profile> {
        Profile::EVERY.into_iter().find(|p| p.id() == id)
    }

    /// The cloud a profile runs on; none for one that runs on any (a reserved cluster: its
    /// cloud is its instance's).
    pub fn cloud(self) -> Option<Cloud> {
        match self {
            Profile::AwsBatch | Profile::Sagemaker | Profile::Eks | Profile::ParallelCluster => {
                Some(Cloud::Aws)
            }
            Profile::GkeAutopilot | Profile::GkeStandard | Profile::CloudRun => Some(Cloud::Gcp),
            Profile::Aks | Profile::AzureMl | Profile::AzureBatch | Profile::CycleCloudSlurm => {
                Some(Cloud::Azure)
            }
            Profile::CoreweaveCks | Profile::CoreweaveSunk => Some(Cloud::Coreweave),
            Profile::LambdaOnDemand | Profile::Lambda1cc => Some(Cloud::Lambda),
            Profile::NebiusMk8s | Profile::NebiusSoperator => Some(Cloud::Nebius),
            Profile::ReservedCluster | Profile::HostedApi => None,
        }
    }
}

/// How a profile runs work, which decides what it can be asked for (team quotas, preemption,
/// GPU sharing, replicas beside training) and how its endpoints serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduler {
    /// A managed training service: each job on instances of its own, with no queue to share,
    /// and endpoints of its own for serving (SageMaker, Azure Machine Learning; Lambda's
    /// on-demand instances as a launcher such as SkyPilot uses them).
    ManagedJobs,
    /// A batch service's job queues, ordered by priority (AWS Batch, Azure Batch).
    JobQueue,
    /// Kubernetes with a batch scheduler (Kueue, Volcano): cohorts, quotas, preemption, GPU
    /// sharing, replicas beside training (EKS, GKE, AKS, CKS, Nebius Managed Kubernetes).
    Kubernetes,
    /// Slurm: partitions and QOS limits (ParallelCluster, CycleCloud, SUNK, a 1-Click
    /// Cluster, Soperator, a reserved cluster).
    Slurm,
    /// Serverless containers: one instance per request stream, scaling to zero (Cloud Run).
    Serverless,
    /// A hosted API: no nodes, no jobs; requests billed per token or by provisioned units.
    HostedApi,
}

impl Scheduler {
    /// Whether each job, and each replica, gets instances of its own (no queue to share).
    pub fn own_instances_per_job(self) -> bool {
        matches!(
            self,
            Scheduler::ManagedJobs | Scheduler::Serverless | Scheduler::HostedApi
        )
    }
}

/// A platform's profile as its scenario names it: one of the calculator's, or a name of the
/// user's own. Written and read as that name (`eks`, `gke_autopilot`, …); any other text
/// loads as a profile of the user's own, as it always has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ProfileName {
    /// One of the calculator's profiles.
    Known(Profile),
    /// A name no profile has: the platform's settings are all its own.
    Custom(String),
}

impl ProfileName {
    /// The name as the scenario writes it.
    pub fn as_str(&self) -> &str {
        match self {
            ProfileName::Known(p) => p.id(),
            ProfileName::Custom(name) => name,
        }
    }

    /// The calculator's profile, if it names one.
    pub fn profile(&self) -> Option<Profile> {
        match self {
            ProfileName::Known(p) => Some(*p),
            ProfileName::Custom(_) => None,
        }
    }
}

/// In the schema: one of the calculator's profiles, listed with their cloud, or any other
/// name (a profile of the user's own, whose settings are all in the document).
#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for ProfileName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ProfileName".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let known: Vec<&str> = Profile::EVERY.iter().map(|p| p.id()).collect();
        let listed: Vec<String> = Profile::EVERY
            .iter()
            .map(|p| {
                let cloud = p.cloud().map_or("any cloud", |c| c.name());
                format!("`{}` ({}, {cloud})", p.id(), p.label())
            })
            .collect();
        schemars::json_schema!({
            "description": format!(
                "The profile its defaults came from: {}; or a name of the user's own.",
                listed.join(", ")
            ),
            "anyOf": [
                { "type": "string", "enum": known },
                { "type": "string" }
            ]
        })
    }
}

impl From<String> for ProfileName {
    fn from(name: String) -> ProfileName {
        Profile::from_id(&name).map_or(ProfileName::Custom(name), ProfileName::Known)
    }
}

impl From<ProfileName> for String {
    fn from(name: ProfileName) -> String {
        name.as_str().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_name_reads_and_writes_as_its_text() {
        for p in Profile::ALL {
            let text = serde_json::to_string(&ProfileName::Known(p)).unwrap();
            assert_eq!(text, format!("\"{}\"", p.id()));
            assert_eq!(
                serde_json::from_str::<ProfileName>(&text)
                    .unwrap()
                    .profile(),
                Some(p)
            );
        }
        let own: ProfileName = serde_json::from_str("\"on-prem slurm\"").unwrap();
        assert_eq!(own, ProfileName::Custom("on-prem slurm".into()));
        assert_eq!(serde_json::to_string(&own).unwrap(), "\"on-prem slurm\"");
    }
}
