//! How a service's replicas hold GPUs on a platform ([`Slot`]), what a shared GPU gives a
//! replica, and how many GPUs the replicas of a platform's services occupy together.
//!
//! - Whole GPUs: a replica holds `gpus_per_replica` GPUs (a fraction rounds up to one GPU on
//!   a platform that does not share them, with a notice).
//! - MIG: a replica holds the smallest slice of the layout that fits it
//!   ([`mig_slice_for`]) and serves at the slice's share of the GPU's compute (isolated: its
//!   neighbours do not slow it). Every GPU has the layout, so `n` replicas on slices of which
//!   a GPU has `k` need ⌈n ÷ k⌉ GPUs, and the services together the most any profile needs.
//! - Time-slicing: replicas pack by milli-GPUs, ⌈Σ milli ÷ 1000⌉ GPUs (perfect packing: a
//!   lower bound, exact when the fractions divide a GPU evenly). A replica alone on its GPU
//!   serves at the whole GPU's rate less the context-switch loss; with neighbours busy, at
//!   the share they leave it ([`time_sliced_shares`]).
//!
//! The GPU time a slot holds is the service's own (priced at the slot's share of the GPU);
//! the rest of the GPUs the slots occupy (slices or shares no replica holds), and time-sliced
//! GPUs' context switches, are GPU-sharing loss, a cost of the platform shared pro rata.

use super::pool::desired_replicas;
use crate::model::scenario::gpu_sharing::{mig_slice_for, COMPUTE_SLICES, MILLI};
use crate::model::scenario::{GpuSharing, Platform, Service};

/// How one replica of a service holds GPUs on a platform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Slot {
    /// Whole GPUs.
    Whole {
        /// GPUs per replica.
        gpus: u32,
    },
    /// A MIG slice.
    Mig {
        /// The profile's position among the layout's profiles (in name order).
        profile: usize,
        /// Slices of it per GPU.
        per_gpu: u32,
        /// Its compute slices (of 7): its share of the GPU is compute ÷ 7.
        compute: u32,
    },
    /// A time-sliced share of a GPU.
    TimeSliced {
        /// The share asked for, in milli-GPUs.
        milli: u32,
        /// Share of the GPU's time lost to switching between replicas.
        context_switch_loss: f64,
    },
}

impl Slot {
    /// The GPUs (or fraction of one) a replica holds and pays for.
    pub fn gpus(self) -> f64 {
        match self {
            Slot::Whole { gpus } => f64::from(gpus),
            Slot::Mig { compute, .. } => f64::from(compute) / f64::from(COMPUTE_SLICES),
            Slot::TimeSliced { milli, .. } => f64::from(milli) / f64::from(MILLI),
        }
    }

    /// Replicas one GPU holds (0 for replicas of whole GPUs).
    pub fn per_gpu(self) -> u32 {
        match self {
            Slot::Whole { .. } => 0,
            Slot::Mig { per_gpu, .. } => per_gpu,
            Slot::TimeSliced { milli, .. } => MILLI / milli.max(1),
        }
    }

    /// A replica's throughput relative to the measured capacity (on its whole GPUs), with
    /// `share` of a time-sliced GPU's time left to it by its neighbours.
    pub fn throughput(self, share: f64) -> f64 {
        match self {
            Slot::Whole { .. } => 1.0,
            Slot::Mig { compute, .. } => f64::from(compute) / f64::from(COMPUTE_SLICES),
            Slot::TimeSliced {
                context_switch_loss,
                ..
            } => (1.0 - context_switch_loss) * share,
        }
    }
}

/// How a replica of `service` holds GPUs on `platform` (a valid scenario's: a MIG platform
/// has a slice for every fractional service).
pub fn slot_of(service: &Service, platform: &Platform) -> Slot {
    let milli = service.gpu_milli();
    let whole = Slot::Whole {
        gpus: milli.div_ceil(MILLI).max(1),
    };
    if milli >= MILLI {
        return whole;
    }
    match &platform.first_pool().gpu_sharing {
        GpuSharing::None => whole,
        GpuSharing::Mig { layout } => {
            match mig_slice_for(
                &platform.first_pool().gpu_model,
                layout,
                milli,
                service.gpu_memory_gb,
            ) {
                Some(p) => Slot::Mig {
                    profile: layout.keys().position(|k| k == p.name).unwrap_or(0),
                    per_gpu: layout.get(p.name).copied().unwrap_or(1).max(1),
                    compute: p.compute,
                },
                None => whole,
            }
        }
        GpuSharing::TimeSlicing {
            context_switch_loss,
        } => Slot::TimeSliced {
            milli,
            context_switch_loss: *context_switch_loss,
        },
    }
}

/// Mean requests per second of `service`, spikes included (as the instant estimate takes
/// them).
pub fn mean_rps(service: &Service) -> f64 {
    let traffic = service.traffic.traffic();
    let spike_share = traffic.spikes.as_ref().map_or(0.0, |x| {
        (x.per_month * x.duration_min / (crate::model::HOURS_PER_MONTH * 60.0)).min(1.0)
            * (x.factor - 1.0)
    });
    traffic.mean_rps * (1.0 + spike_share)
}

/// Most rounds of [`time_sliced_shares`]' damped fixed point (each halves the step: 80 take
/// it below a billionth from anywhere in [0, 1]).
const SHARE_ROUNDS: usize = 80;

/// The share of a time-sliced GPU's time each service's replicas get on `platform` (1 for
/// services not time-sliced): processor sharing, seen through the neighbours' load in the
/// busiest hour of the week (a mean field). With the platform's time-sliced services on G
/// GPUs (their replicas at that traffic, packed), each GPU is busy U = Σ λ ÷ c' ÷ G of the
/// time, c' a replica's rate alone on the GPU after the context-switch loss; a replica gets
/// what its neighbours leave, 1 − (U − its own part), at least its share of the GPU (all
/// neighbours busy).
///
/// For one replica per service on one GPU this is exact for the mean latency of Poisson
/// traffic: M/M/1 at rate c'(1 − U + u) gives the mean (1 ÷ c') ÷ (1 − U) of processor
/// sharing. The busiest hour's share holds all day (quieter hours are served a little
/// slower than they would be), and a neighbour's spike is not seen: its slowdown of the
/// others during the spike is not modelled.
pub fn time_sliced_shares(services: &[Service], platform: &Platform) -> Vec<f64> {
    let slots: Vec<Slot> = services.iter().map(|s| slot_of(s, platform)).collect();
    let mut shares = vec![1.0; services.len()];
    let sliced: Vec<usize> = (0..services.len())
        .filter(|&i| matches!(slots[i], Slot::TimeSliced { .. }))
        .collect();
    if sliced.is_empty() {
        return shares;
    }
    let rate_alone = |i: usize| {
        services[i].capacity_rps
            * platform.first_pool().relative_throughput
            * slots[i].throughput(1.0)
    };
    // GPU-seconds per second each service's traffic needs in the busiest hour, alone on a
    // GPU.
    let busiest: Vec<f64> = services
        .iter()
        .map(|s| s.traffic.traffic().busiest_rps())
        .collect();
    let need: Vec<f64> = (0..services.len())
        .map(|i| busiest[i] / rate_alone(i).max(1e-12))
        .collect();
    for _ in 0..SHARE_ROUNDS {
        let replicas: Vec<f64> = sliced
            .iter()
            .map(|&i| {
                let spec = super::platform::pool_spec(&services[i], platform, shares[i]);
                f64::from(desired_replicas(&spec, busiest[i]))
            })
            .collect();
        let milli: f64 = sliced
            .iter()
            .zip(&replicas)
            .map(|(&i, r)| r * slots[i].gpus() * f64::from(MILLI))
            .sum();
        let gpus = (milli / f64::from(MILLI) - 1e-9).ceil().max(1.0);
        let busy: f64 = sliced.iter().map(|&i| need[i]).sum::<f64>() / gpus;
        let next: Vec<f64> = sliced
            .iter()
            .zip(&replicas)
            .map(|(&i, &r)| {
                let own = if r > 0.0 { need[i] / r } else { 0.0 };
                (1.0 - (busy - own).max(0.0)).clamp(slots[i].gpus(), 1.0)
            })
            .collect();
        let settled = sliced
            .iter()
            .zip(&next)
            .all(|(&i, s)| (shares[i] - s).abs() < 1e-12);
        // Damped: replicas come in whole numbers, so the map can jump across its fixed point
        // (a larger share asks fewer replicas, on fewer GPUs, each busier); halving the step
        // settles at the jump instead of alternating between its two sides.
        for (&i, s) in sliced.iter().zip(next) {
            shares[i] = 0.5 * (shares[i] + s);
        }
        if settled {
            break;
        }
    }
    shares
}

/// The GPUs and nodes the replicas of a platform's services occupy, bucket by bucket: the
/// replicas each slot holds, added up as each service runs
/// ([`crate::model::serving::pool::run_pool`]'s `held`).
#[derive(Debug, Clone, Default)]
pub struct SharedGpus {
    /// Per MIG profile of the layout (in name order), replicas per bucket.
    pub mig: Vec<Vec<u64>>,
    /// Slices of each MIG profile per GPU.
    pub mig_per_gpu: Vec<u32>,
    /// Time-sliced milli-GPUs per bucket.
    pub milli: Vec<u64>,
    /// Whole GPUs held per bucket (counted only where replicas pack nodes of several GPUs).
    pub whole: Vec<u64>,
    /// GPUs per node.
    pub gpus_per_node: u64,
}

/// GPU time the replicas' nodes hold that no replica does.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Unheld {
    /// Slices or shares of shared GPUs no replica held, GPU-seconds (GPU-sharing loss).
    pub slots_gpu_s: f64,
    /// GPUs of the replicas' nodes that no replica held, GPU-seconds (idle).
    pub node_gpu_s: f64,
}

impl SharedGpus {
    /// Counters for `buckets` buckets on `platform`; with `nodes`, whole GPUs are counted
    /// too, to pack the replicas onto nodes.
    pub fn new(platform: &Platform, buckets: usize, nodes: bool) -> SharedGpus {
        let mut out = match &platform.first_pool().gpu_sharing {
            GpuSharing::Mig { layout } => SharedGpus {
                mig: vec![vec![0; buckets]; layout.len()],
                mig_per_gpu: layout.values().map(|&n| n.max(1)).collect(),
                ..SharedGpus::default()
            },
            GpuSharing::TimeSlicing { .. } => SharedGpus {
                milli: vec![0; buckets],
                ..SharedGpus::default()
            },
            GpuSharing::None => SharedGpus::default(),
        };
        if nodes {
            out.whole = vec![0; buckets];
        }
        out.gpus_per_node = u64::from(platform.first_pool().gpus_per_node.max(1));
        out
    }

    /// Shared GPUs occupied in bucket `b`, the parts of them the slots there hold, and the
    /// parts in a GPU (milli-GPUs when time-sliced, compute slices with MIG); `compute` is
    /// each MIG profile's compute slices.
    fn at(&self, b: usize, compute: &[u32]) -> (u64, u64, u64) {
        if !self.milli.is_empty() {
            let m = self.milli[b];
            return (m.div_ceil(u64::from(MILLI)), m, u64::from(MILLI));
        }
        let mut gpus = 0;
        let mut held = 0;
        for (p, &n) in self.mig.iter().map(|counts| &counts[b]).enumerate() {
            gpus = gpus.max(n.div_ceil(u64::from(self.mig_per_gpu[p])));
            held += n * u64::from(compute[p]);
        }
        (gpus, held, u64::from(COMPUTE_SLICES))
    }

    /// The shared GPUs the slices or shares occupy, bucket by bucket.
    pub fn gpus_per_bucket(&self, compute: &[u32]) -> Vec<u64> {
        let buckets = self.milli.len().max(self.mig.first().map_or(0, Vec::len));
        (0..buckets).map(|b| self.at(b, compute).0).collect()
    }

    /// GPU-seconds the shared GPUs hold that no slot does, and the nodes' GPUs that no
    /// replica holds (nodes packed perfectly: ⌈GPUs ÷ GPUs per node⌉), over buckets of
    /// `bucket_s` to `horizon_s`; `compute` is each MIG profile's compute slices, in the
    /// layout's order.
    pub fn unheld(&self, bucket_s: f64, horizon_s: f64, compute: &[u32]) -> Unheld {
        let buckets = self
            .milli
            .len()
            .max(self.mig.first().map_or(0, Vec::len))
            .max(self.whole.len());
        let shared = !self.milli.is_empty() || !self.mig.is_empty();
        let mut out = Unheld::default();
        for b in 0..buckets {
            let len = (horizon_s - b as f64 * bucket_s).min(bucket_s);
            let (gpus, held, parts) = if shared {
                self.at(b, compute)
            } else {
                (0, 0, 1)
            };
            out.slots_gpu_s += (gpus * parts).saturating_sub(held) as f64 / parts as f64 * len;
            if let Some(&whole) = self.whole.get(b) {
                let occupied = gpus + whole;
                let nodes = occupied.div_ceil(self.gpus_per_node);
                out.node_gpu_s += (nodes * self.gpus_per_node - occupied) as f64 * len;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::gpu_sharing::standard_layout;

    fn a100(sharing: GpuSharing) -> Platform {
        let mut p = Platform::default();
        let pool = p.first_pool_mut();
        pool.gpu_model = "A100".into();
        pool.gpu_memory_gb = 40.0;
        pool.relative_throughput = 1.0;
        pool.gpu_sharing = sharing;
        p
    }

    fn small(gpus: f64, rps: f64) -> Service {
        let mut s = Service {
            gpus_per_replica: gpus,
            gpu_memory_gb: 4.0,
            capacity_rps: 10.0,
            concurrency: 1,
            min_replicas: 1,
            max_replicas: 1,
            ..Service::default()
        };
        s.traffic.mean_rps = rps;
        s
    }

    #[test]
    fn a_fraction_takes_a_whole_gpu_where_gpus_are_not_shared() {
        assert_eq!(
            slot_of(&small(0.25, 1.0), &a100(GpuSharing::None)),
            Slot::Whole { gpus: 1 }
        );
        assert_eq!(
            slot_of(&small(2.0, 1.0), &a100(GpuSharing::None)),
            Slot::Whole { gpus: 2 }
        );
    }

    #[test]
    fn a_mig_slice_serves_at_its_share_of_the_compute() {
        let p = a100(GpuSharing::Mig {
            layout: standard_layout("A100", "3g_2g_1g_1g").unwrap(),
        });
        let slot = slot_of(&small(0.25, 1.0), &p);
        // 0.25 of a GPU needs 2 of 7 compute slices: the 2g.10gb, one per GPU.
        assert_eq!(
            slot,
            Slot::Mig {
                profile: 1,
                per_gpu: 1,
                compute: 2
            }
        );
        assert!((slot.throughput(1.0) - 2.0 / 7.0).abs() < 1e-12);
    }

    /// Two services time-sliced on one GPU, one replica each: each gets what the other leaves,
    /// and M/M/1 at that rate has processor sharing's mean sojourn, (1 ÷ c') ÷ (1 − U).
    #[test]
    fn time_sliced_neighbours_leave_a_share_with_processor_sharings_mean() {
        let loss = 0.1;
        let p = a100(GpuSharing::TimeSlicing {
            context_switch_loss: loss,
        });
        let services = [small(0.5, 2.0), small(0.5, 3.0)];
        let shares = time_sliced_shares(&services, &p);
        let c = 10.0 * (1.0 - loss);
        let (u1, u2) = (2.0 / c, 3.0 / c);
        assert!((shares[0] - (1.0 - u2)).abs() < 1e-12, "{shares:?}");
        assert!((shares[1] - (1.0 - u1)).abs() < 1e-12, "{shares:?}");
        for (i, lambda) in [(0, 2.0), (1, 3.0)] {
            let rate = c * shares[i];
            let mm1_mean = 1.0 / (rate - lambda);
            let ps_mean = (1.0 / c) / (1.0 - u1 - u2);
            assert!(
                (mm1_mean - ps_mean).abs() < 1e-12,
                "{mm1_mean} vs {ps_mean}"
            );
        }
    }

    #[test]
    fn an_overloaded_time_sliced_gpu_leaves_each_replica_its_share_at_worst() {
        let p = a100(GpuSharing::TimeSlicing {
            context_switch_loss: 0.0,
        });
        let services = [
            small(0.25, 9.0),
            small(0.25, 9.0),
            small(0.25, 9.0),
            small(0.25, 9.0),
        ];
        let shares = time_sliced_shares(&services, &p);
        assert!(
            shares.iter().all(|&s| (s - 0.25).abs() < 1e-9),
            "{shares:?}"
        );
    }

    #[test]
    fn seven_one_g_slices_fit_one_a100_and_an_eighth_needs_a_second() {
        let p = a100(GpuSharing::Mig {
            layout: standard_layout("A100", "7x1g").unwrap(),
        });
        let mut gpus = SharedGpus::new(&p, 2, false);
        gpus.mig[0][0] = 7;
        gpus.mig[0][1] = 8;
        assert_eq!(gpus.at(0, &[1]).0, 1);
        assert_eq!(gpus.at(1, &[1]).0, 2);
        // Seven slices hold the whole GPU; the eighth's second GPU holds six empty slices.
        let unheld = gpus.unheld(60.0, 120.0, &[1]);
        assert!(
            (unheld.slots_gpu_s - 6.0 / 7.0 * 60.0).abs() < 1e-9,
            "{unheld:?}"
        );
        assert_eq!(unheld.node_gpu_s, 0.0);
    }

    #[test]
    fn time_sliced_replicas_pack_by_milli_gpus() {
        let p = a100(GpuSharing::TimeSlicing {
            context_switch_loss: 0.05,
        });
        let mut gpus = SharedGpus::new(&p, 2, false);
        gpus.milli[0] = 20 * 50;
        gpus.milli[1] = 21 * 50;
        assert_eq!(gpus.at(0, &[]), (1, 1_000, 1_000));
        assert_eq!(gpus.at(1, &[]), (2, 1_050, 1_000));
    }

    #[test]
    fn replicas_pack_nodes_and_the_rest_of_a_node_is_idle() {
        let mut p = a100(GpuSharing::TimeSlicing {
            context_switch_loss: 0.0,
        });
        p.first_pool_mut().gpus_per_node = 8;
        let mut gpus = SharedGpus::new(&p, 2, true);
        // 3 whole GPUs and 1.5 time-sliced GPUs' worth (two GPUs): 5 of 8 GPUs.
        gpus.whole[0] = 3;
        gpus.milli[0] = 1_500;
        // 7 whole and 2 time-sliced: 9 GPUs, two nodes.
        gpus.whole[1] = 7;
        gpus.milli[1] = 2_000;
        let unheld = gpus.unheld(60.0, 120.0, &[]);
        assert!((unheld.slots_gpu_s - 0.5 * 60.0).abs() < 1e-9, "{unheld:?}");
        assert!(
            (unheld.node_gpu_s - (3.0 + 7.0) * 60.0).abs() < 1e-9,
            "{unheld:?}"
        );
    }

    /// One service whose replicas, time-sliced, ask for fewer GPUs the faster each is: the
    /// undamped map alternated between 0.40 (5 replicas) and 0.73 (3); the damped one settles
    /// between them, whatever the number of rounds.
    #[test]
    fn a_share_that_would_alternate_settles_between_its_two_values() {
        let p = a100(GpuSharing::TimeSlicing {
            context_switch_loss: 0.0,
        });
        let service = Service {
            target_utilization: 0.5,
            max_replicas: 16,
            ..small(0.25, 9.0)
        };
        let share = time_sliced_shares(std::slice::from_ref(&service), &p)[0];
        assert!((0.40..=0.74).contains(&share), "{share}");
    }
}
