//! Jobs asking for a fraction of a GPU on a platform that shares GPUs: placement on the
//! shared GPUs ([`crate::model::sim::shared_gpus`]) and their GPU-sharing loss.
//!
//! A fraction goes to the shared GPU it fits most tightly (ready nodes first, then nodes
//! being provisioned; ties to the GPU opened first); where none has room, a free GPU slot
//! becomes a shared GPU, found as a 1-GPU job's would be (the placement's node, or a new
//! node). Its job then starts as any job on one node: image pull, restarts and checkpoints
//! are charged at its share.

use super::super::shared_gpus::{capacity_of, SharedGpu, PARTS};
use super::mechanism::{Mechanism, PoolStart, Setup};
use super::Sim;
use crate::model::cost_category::Category;

/// The shared GPUs of the current pool's pass, and the share each job holds.
#[derive(Clone)]
pub(super) struct SharedGpus {
    /// The parts of one whole GPU, shared (the current pool's).
    capacity: [u32; PARTS],
    /// Shared GPUs, live ones and ones back in their node (`jobs` 0, listed in `free`).
    gpus: Vec<SharedGpu>,
    free: Vec<u32>,
    /// Shared GPUs live now.
    live: u32,
    /// Per job, the shared GPU it holds a part of (`u32::MAX`: none).
    job_gpu: Vec<u32>,
}

impl Mechanism for SharedGpus {
    /// On where some job class holds a share of a shared GPU on its pool.
    fn of(setup: &Setup) -> Option<SharedGpus> {
        setup
            .own_plans
            .iter()
            .any(|plan| plan.fractional())
            .then(|| SharedGpus {
                capacity: [0; PARTS],
                gpus: Vec::new(),
                free: Vec::new(),
                live: 0,
                job_gpu: vec![u32::MAX; setup.jobs.len()],
            })
    }

    /// No shared GPU: the pool's nodes start empty.
    fn enter_pool(&mut self, pool: &PoolStart) {
        self.capacity = capacity_of(pool.pool);
        self.gpus.clear();
        self.free.clear();
        self.live = 0;
    }
}

impl SharedGpus {
    /// Shared GPUs live now.
    #[inline]
    pub(super) fn live(&self) -> u32 {
        self.live
    }
}

impl Sim<'_> {
    /// The shared GPUs: there whenever a job of a fractional class is placed or leaves.
    #[inline]
    fn shared(&mut self) -> &mut SharedGpus {
        self.mech
            .shared_gpus
            .as_mut()
            .expect("shared GPUs where a class is fractional")
    }

    /// Places `job`, of a fractional class, on a shared GPU; whether it left the queue.
    pub(super) fn try_place_share(&mut self, job: usize) -> bool {
        let Some(need) = self.plans[self.jobs[job].class].need else {
            return false;
        };
        // A shared GPU with room on a ready node; else a free GPU on a ready node; else a
        // shared GPU on a node being provisioned; else a GPU as a 1-GPU job would find one.
        let room = self.shared_gpu_with_room(|g| g.fits(&need));
        let on_ready = room.filter(|&g| {
            let node = self.mech.shared_gpus.as_ref().map_or(0, |s| s.gpus[g].node);
            self.nodes[node as usize].ready
        });
        let gpu = match (on_ready, self.capacity.index.fullest_fit(true, 1), room) {
            (Some(gpu), _, _) => gpu,
            (None, Some(node), _) => self.open_shared_gpu(node),
            (None, None, Some(gpu)) => gpu,
            (None, None, None) => match self.pick_shared_node(1, self.platform.placement) {
                Some(node) => self.open_shared_gpu(node),
                None => return false,
            },
        };
        self.settle_sharing_loss(gpu);
        let shared = self.shared();
        shared.gpus[gpu].take(&need);
        shared.job_gpu[job] = gpu as u32;
        let node = shared.gpus[gpu].node as usize;
        self.hold(job, node, 0);
        self.dequeue(job);
        // Its one node is held from now: no capacity wait to charge.
        self.start_if_ready(job, false);
        true
    }

    /// The live shared GPU `fits` accepts with the least of it unused (the tightest), on a
    /// ready node if any, else on one being provisioned.
    fn shared_gpu_with_room(&self, fits: impl Fn(&SharedGpu) -> bool) -> Option<usize> {
        let shared = self.mech.shared_gpus.as_ref()?;
        shared
            .gpus
            .iter()
            .enumerate()
            .filter(|(_, g)| g.jobs > 0 && fits(g))
            .min_by_key(|(i, g)| {
                let ready = self.nodes[g.node as usize].ready;
                let unused = ((1.0 - g.held).max(0.0) * 1e6) as u64;
                (!ready, unused, *i)
            })
            .map(|(i, _)| i)
    }

    /// Takes a free GPU slot of `node` as a shared GPU; its index.
    fn open_shared_gpu(&mut self, node: usize) -> usize {
        let free = self.nodes[node].free - 1;
        self.set_free(node, free);
        let now = self.now;
        let shared = self.shared();
        let gpu = SharedGpu {
            node: node as u32,
            free: shared.capacity,
            jobs: 0,
            held: 0.0,
            since_s: now,
        };
        shared.live += 1;
        match shared.free.pop() {
            Some(i) => {
                shared.gpus[i as usize] = gpu;
                i as usize
            }
            None => {
                shared.gpus.push(gpu);
                shared.gpus.len() - 1
            }
        }
    }

    /// Gives back the share `job` holds; a shared GPU its last job leaves goes back to its
    /// node's free slots.
    pub(super) fn release_share(&mut self, job: usize) {
        let gpu = std::mem::replace(&mut self.shared().job_gpu[job], u32::MAX);
        if gpu == u32::MAX {
            return;
        }
        let gpu = gpu as usize;
        let Some(need) = self.plans[self.jobs[job].class].need else {
            return;
        };
        self.settle_sharing_loss(gpu);
        let shared = self.shared();
        shared.gpus[gpu].give(&need);
        if shared.gpus[gpu].jobs == 0 {
            shared.live -= 1;
            shared.free.push(gpu as u32);
            let node = shared.gpus[gpu].node as usize;
            if !self.nodes[node].released {
                let free = self.nodes[node].free + 1;
                self.set_free(node, free);
            }
        }
    }

    /// Charges the part of shared GPU `gpu` no job held since it last changed, while its node
    /// was ready, as GPU-sharing loss.
    fn settle_sharing_loss(&mut self, gpu: usize) {
        let now = self.now;
        let g = &mut self.shared().gpus[gpu];
        let since = std::mem::replace(&mut g.since_s, now);
        let (node, jobs, held) = (g.node as usize, g.jobs, g.held);
        let n = &self.nodes[node];
        if jobs == 0 || !n.ready || n.released {
            return;
        }
        let from = since.max(n.ready_at_s);
        let loss = (1.0 - held).max(0.0) * (self.now - from).max(0) as f64;
        self.charge(node, Category::GpuSharingLoss, loss);
    }

    /// At the horizon: the loss of every shared GPU still live.
    pub(super) fn settle_shared_gpus_at_horizon(&mut self) {
        let Some(opened) = self.mech.shared_gpus.as_ref().map(|s| s.gpus.len()) else {
            return;
        };
        for gpu in 0..opened {
            if self.shared().gpus[gpu].jobs > 0 {
                self.settle_sharing_loss(gpu);
            }
        }
    }
}
