//! GPUs that jobs asking for a fraction of one share, on a platform that shares GPUs.
//!
//! A shared GPU is one GPU slot of a node taken whole from the node's free slots; jobs hold
//! parts of it:
//! - time-slicing: milli-GPUs (their shares add up to at most one GPU) and memory (time-slicing
//!   does not isolate memory: the jobs on a GPU must fit its memory together);
//! - MIG: one slice each of the layout, the smallest that fits the job's share and memory
//!   (the layout is the same on every GPU, as the GPU operator's mig-manager applies it).
//!
//! A job's GPU time is the share it asks for (its milli-GPUs, also on a MIG slice larger than
//! that); what no job uses of a shared GPU (empty parts, and a slice's compute beyond its
//! job's share) is GPU-sharing loss. When its last job leaves, the GPU
//! goes back to its node's free slots.

use crate::model::scenario::gpu_sharing::{mig_slice_for, COMPUTE_SLICES, MILLI};
use crate::model::scenario::{GpuSharing, JobClass, NodePool, Platform};

/// Kinds of parts a shared GPU has: time-slicing's milli-GPUs and memory, or MIG profiles
/// (a layout has at most seven).
pub(super) const PARTS: usize = 8;

/// Memory is counted in tenths of a GB.
const MEMORY_UNITS_PER_GB: f64 = 10.0;

/// What one job of a class takes of a shared GPU.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct ShareNeed {
    /// (kind of part, how many), for up to two kinds.
    pub(super) parts: [(u8, u32); 2],
    /// The share of the GPU's time it is charged (what it asks for), 0–1.
    pub(super) share: f64,
}

impl ShareNeed {
    /// What a job of `class` takes of a shared GPU of `pool` of `platform`: `None` when it
    /// holds whole GPUs (it asks for one or more, or the pool does not share GPUs, or, with
    /// MIG, no slice fits it: validation refuses that).
    pub(super) fn of(class: &JobClass, platform: &Platform, pool: &NodePool) -> Option<ShareNeed> {
        if !class.is_fractional() || !platform.jobs_share_gpus_on(pool) {
            return None;
        }
        let milli = class.gpu_milli().max(1);
        match &pool.gpu_sharing {
            GpuSharing::None => None,
            GpuSharing::TimeSlicing { .. } => Some(ShareNeed {
                parts: [(0, milli), (1, memory_units(class.gpu_memory_gb))],
                share: f64::from(milli) / f64::from(MILLI),
            }),
            GpuSharing::Mig { layout } => {
                let slice = mig_slice_for(&pool.gpu_model, layout, milli, class.gpu_memory_gb)?;
                let profile = layout.keys().position(|k| k == slice.name)?;
                // What it asks for, but never more than its slice (a 1g slice is 1/7 of the
                // GPU, which a share of 0.143 rounds above).
                let slice_share = f64::from(slice.compute) / f64::from(COMPUTE_SLICES);
                Some(ShareNeed {
                    parts: [(profile as u8, 1), (profile as u8, 0)],
                    share: (f64::from(milli) / f64::from(MILLI)).min(slice_share),
                })
            }
        }
    }
}

/// The parts of one whole GPU of `pool` (its memory with time-slicing, its layout's slices
/// with MIG).
pub(super) fn capacity_of(pool: &NodePool) -> [u32; PARTS] {
    let mut out = [0; PARTS];
    match &pool.gpu_sharing {
        GpuSharing::None => {}
        GpuSharing::TimeSlicing { .. } => {
            out[0] = MILLI;
            out[1] = memory_units(pool.gpu_memory_gb);
        }
        GpuSharing::Mig { layout } => {
            for (slot, &n) in out.iter_mut().zip(layout.values()) {
                *slot = n;
            }
        }
    }
    out
}

/// `gb` in tenths of a GB, rounded up (a need never rounds below what it is).
fn memory_units(gb: f64) -> u32 {
    (gb * MEMORY_UNITS_PER_GB - 1e-9)
        .ceil()
        .clamp(0.0, f64::from(u32::MAX)) as u32
}

/// One shared GPU.
#[derive(Debug, Clone)]
pub(super) struct SharedGpu {
    /// The node it is on.
    pub(super) node: u32,
    /// Its parts no job holds.
    pub(super) free: [u32; PARTS],
    /// Jobs holding a part of it (0: it is back in its node's free slots).
    pub(super) jobs: u32,
    /// The GPU's share the jobs on it hold, 0–1.
    pub(super) held: f64,
    /// Since when `held` has been unchanged, s (GPU-sharing loss accrues while the node is
    /// ready).
    pub(super) since_s: i64,
}

impl SharedGpu {
    /// Whether `need` fits what it has free.
    pub(super) fn fits(&self, need: &ShareNeed) -> bool {
        need.parts
            .iter()
            .all(|&(kind, n)| self.free[usize::from(kind)] >= n)
    }

    /// Takes `need`'s parts.
    pub(super) fn take(&mut self, need: &ShareNeed) {
        for &(kind, n) in &need.parts {
            self.free[usize::from(kind)] -= n;
        }
        self.jobs += 1;
        self.held += need.share;
    }

    /// Gives `need`'s parts back.
    pub(super) fn give(&mut self, need: &ShareNeed) {
        for &(kind, n) in &need.parts {
            self.free[usize::from(kind)] += n;
        }
        self.jobs -= 1;
        self.held = if self.jobs == 0 {
            0.0
        } else {
            (self.held - need.share).max(0.0)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::gpu_sharing::standard_layout;

    fn platform(sharing: GpuSharing) -> Platform {
        let mut p = Platform {
            profile: "eks".to_string().into(),
            ..Platform::default()
        };
        let pool = p.first_pool_mut();
        pool.gpu_model = "A100".into();
        pool.gpu_memory_gb = 40.0;
        pool.gpu_sharing = sharing;
        p
    }

    fn class(gpus: f64, memory: f64) -> JobClass {
        JobClass {
            gpus_per_job: gpus,
            gpu_memory_gb: memory,
            ..JobClass::default()
        }
    }

    #[test]
    fn time_sliced_jobs_pack_by_share_and_by_memory() {
        let p = platform(GpuSharing::TimeSlicing {
            context_switch_loss: 0.05,
        });
        let mut gpu = SharedGpu {
            node: 0,
            free: capacity_of(p.first_pool()),
            jobs: 0,
            held: 0.0,
            since_s: 0,
        };
        // Two 0.47 shares fit (940 milli); a third does not.
        let small = ShareNeed::of(&class(0.47, 10.0), &p, p.first_pool()).unwrap();
        assert!((small.share - 0.47).abs() < 1e-12);
        gpu.take(&small);
        gpu.take(&small);
        assert!(!gpu.fits(&small));
        // Memory binds too: two 0.2 shares of 25 GB are more than 40 GB.
        let mut other = SharedGpu {
            free: capacity_of(p.first_pool()),
            ..gpu.clone()
        };
        other.jobs = 0;
        let big = ShareNeed::of(&class(0.2, 25.0), &p, p.first_pool()).unwrap();
        other.take(&big);
        assert!(!other.fits(&big));
        gpu.give(&small);
        gpu.give(&small);
        assert_eq!(gpu.free, capacity_of(p.first_pool()));
        assert_eq!(gpu.held, 0.0);
    }

    #[test]
    fn a_mig_job_takes_the_smallest_slice_that_fits() {
        let layout = standard_layout("A100", "3g_2g_1g_1g").unwrap();
        let p = platform(GpuSharing::Mig { layout });
        // 0.1 GPU takes a 1g slice (the first profile in name order is 1g.5gb); 0.25 a 2g.
        let tiny = ShareNeed::of(&class(0.1, 4.0), &p, p.first_pool()).unwrap();
        let mid = ShareNeed::of(&class(0.25, 8.0), &p, p.first_pool()).unwrap();
        let names: Vec<&String> = match &p.first_pool().gpu_sharing {
            GpuSharing::Mig { layout } => layout.keys().collect(),
            _ => unreachable!(),
        };
        assert_eq!(names[usize::from(tiny.parts[0].0)], "1g.5gb");
        assert_eq!(names[usize::from(mid.parts[0].0)], "2g.10gb");
        // Each is charged what it asks for; the rest of its slice is sharing loss.
        assert!((tiny.share - 0.1).abs() < 1e-12 && (mid.share - 0.25).abs() < 1e-12);
        // Whole GPUs and platforms that do not share take no share.
        assert_eq!(ShareNeed::of(&class(1.0, 4.0), &p, p.first_pool()), None);
        let none = platform(GpuSharing::None);
        assert_eq!(
            ShareNeed::of(&class(0.5, 4.0), &none, none.first_pool()),
            None
        );
    }
}
