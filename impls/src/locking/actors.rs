//! Actors (H1): "processing nodes only touch their own local memory and communicate with other
//! nodes through asynchronous message passing", one node per core ("we would spawn a separate
//! Lua VM for each processing core"). Each worker owns a contiguous slice of the units and runs
//! their jobs; a push of another unit is a message to that unit's owner, never a write.
//!
//! One algorithm ([`Actors`]) over the channel ([`Channel`]): `actors_std` (`std::sync::mpsc`)
//! and, in [`super::peers::crossbeam`], `actors_crossbeam`. At [`new`](GameplayRunner::new) the
//! units are split among the `T` workers in contiguous ranges (worker `w` owns units
//! `[w·len/T, (w+1)·len/T)`), each range its own [`Units`] (the components family's store) with
//! the worker's mailbox, behind a `Mutex` its owner locks once per call (the hand-over of a
//! frame's state to its worker, not counted). Physics does not move within a frame, so it is a
//! plain [`Physics`] every worker reads through a shared reference (a "safe, functional API"),
//! synchronised from every partition at [`end_frame`](GameplayRunner::end_frame).
//!
//! A call: every worker scans the jobs in order and runs those whose unit it owns: it reads its
//! own unit, raycasts on the shared physics and pushes its own unit, all locally; the push of
//! the job's `other` unit is sent as a message `(unit, delta)` to the owner's mailbox, even when
//! the owner is itself, so the message count is the trace's pushes of other units, whatever the
//! threads. After its jobs a worker sends a `Done` marker to every mailbox (not counted) and
//! applies the pushes in its own mailbox until it has received one `Done` from every worker:
//! each sender's messages arrive in order, so by then every push sent to it has been applied.
//! Counted: `messages` (pushes sent), no lock. The trade-off: no lock on any call and no shared
//! write, but every foreign push costs a send and a receive, every worker scans the whole job
//! list, the work is split by unit ownership rather than evenly (a hot unit's jobs all run on
//! one worker), and a call cannot end before the slowest worker has sent its `Done`.

use std::sync::Mutex;
use std::sync::mpsc;

use super::{
    GameplayApi, GameplayRunner, Job, LockingDesignInfo, Physics, Script, SyncCounts, Tally, Units,
    Workers, World, run_job, sum_workers, workers,
};
use crate::{DesignKind, DesignMeta};

/// What one worker sends another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mail {
    /// Add the delta to the unit (which the receiver owns).
    Push(u32, [f32; 2]),
    /// The sender has run all its jobs of this call: nothing more from it until the next.
    Done,
}

/// An unbounded channel of [`Mail`], as the actor designs use it.
pub trait Channel: Send + Sync + Sized + 'static {
    /// The design's info (its name says which channel).
    const INFO: LockingDesignInfo;

    /// The sending half, shared by every worker.
    type Sender: Send + Sync;

    /// The receiving half, owned by one worker.
    type Receiver: Send;

    /// A new unbounded channel.
    fn unbounded() -> (Self::Sender, Self::Receiver);

    /// Sends `mail` (never blocks: the channel is unbounded).
    ///
    /// # Panics
    /// The receiver is gone (never: the design keeps both halves).
    fn send(sender: &Self::Sender, mail: Mail);

    /// The next mail, waiting for one.
    ///
    /// # Panics
    /// Every sender is gone (never: the design keeps both halves).
    fn recv(receiver: &Self::Receiver) -> Mail;
}

/// [`Channel::send`] and [`Channel::recv`] for a channel whose halves have `send(mail)` and
/// `recv()` returning a `Result` (std's `mpsc`, `crossbeam-channel`): the crate's calls, their
/// error (never: the design keeps both halves) a panic. Expands inside the `impl Channel`.
macro_rules! send_and_recv {
    () => {
        #[inline]
        fn send(sender: &Self::Sender, mail: Mail) {
            sender
                .send(mail)
                .expect("the design keeps every receiver while it sends");
        }

        #[inline]
        fn recv(receiver: &Self::Receiver) -> Mail {
            receiver
                .recv()
                .expect("the design keeps every sender while it receives")
        }
    };
}
pub(crate) use send_and_recv;

/// `std::sync::mpsc::channel`: its `Receiver` is not `Sync`, which is fine here, since each
/// sits in its owner's partition behind the partition's `Mutex`.
#[derive(Debug, Clone, Copy)]
pub struct StdChannel;

impl Channel for StdChannel {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "actors_std",
            description: "H1: each worker owns a contiguous slice of the units and runs their jobs; pushes of other units are std::sync::mpsc messages to their owner",
            kind: DesignKind::Article,
        },
        answers: "H1 (actors: workers own their units, pushes of others are messages)",
        foreign_writes: true,
        threaded: true,
    };

    type Sender = mpsc::Sender<Mail>;
    type Receiver = mpsc::Receiver<Mail>;

    fn unbounded() -> (Self::Sender, Self::Receiver) {
        mpsc::channel()
    }

    send_and_recv!();
}

/// `actors_std`.
pub type ActorsStd = Actors<StdChannel>;

/// One worker's own memory: its units and its mailbox.
struct Partition<C: Channel> {
    /// Units `start..start + units.len()`, unit `start + i` at local index `i`.
    units: Units,
    /// The first unit it owns.
    start: u32,
    /// Where the other workers' pushes of its units arrive.
    mailbox: C::Receiver,
}

/// The units split among the workers, each slice behind its owner's lock with its mailbox;
/// physics shared read-only.
pub struct Actors<C: Channel> {
    /// `partitions[w]`: worker `w`'s units and mailbox.
    partitions: Vec<Mutex<Partition<C>>>,
    /// `senders[w]`: the sending half of worker `w`'s mailbox.
    senders: Vec<C::Sender>,
    /// Physics, read by every worker within a frame, synchronised at its end.
    physics: Physics,
    /// Number of units.
    len: u32,
    pool: Workers,
    counts: SyncCounts,
}

/// The worker `w` of `of` that owns `unit` of `len`: the last `w` with
/// `w·len/of <= unit` (empty ranges, when `of > len`, own nothing).
#[inline]
fn owner(unit: u32, len: u32, of: usize) -> usize {
    debug_assert!(unit < len, "unit {unit} of {len}");
    (((u64::from(unit) + 1) * of as u64 - 1) / u64::from(len.max(1))) as usize
}

/// The first unit worker `w` of `of` owns.
#[inline]
fn range_start(w: usize, len: u32, of: usize) -> u32 {
    (w as u64 * u64::from(len) / of.max(1) as u64) as u32
}

/// The API on worker `me`: its own units locally, physics shared, pushes of other units as
/// mail.
struct Local<'a, C: Channel> {
    units: &'a mut Units,
    start: u32,
    physics: &'a Physics,
    senders: &'a [C::Sender],
    len: u32,
    /// The running job's unit until its own push has been applied: the next push of it is the
    /// job's own, every other push is mail.
    own: Option<u32>,
    sent: u64,
}

impl<C: Channel> GameplayApi for Local<'_, C> {
    #[inline]
    fn position(&mut self, unit: u32) -> [f32; 2] {
        // A script reads only its own unit (`run_job`), which this worker owns.
        self.units.position(unit - self.start)
    }

    #[inline]
    fn raycast(&mut self, unit: u32) -> u32 {
        self.physics.raycast(unit)
    }

    #[inline]
    fn push(&mut self, unit: u32, delta: [f32; 2]) {
        if self.own == Some(unit) {
            self.own = None;
            self.units.push(unit - self.start, delta);
        } else {
            self.sent += 1;
            let to = owner(unit, self.len, self.senders.len());
            C::send(&self.senders[to], Mail::Push(unit, delta));
        }
    }
}

impl<C: Channel> GameplayRunner for Actors<C> {
    const INFO: LockingDesignInfo = C::INFO;

    fn new(world: World, threads: usize) -> Self {
        let pool = workers(threads);
        let of = pool.threads();
        let positions = world.units.all_positions();
        let len = positions.len() as u32;
        let (senders, partitions) = (0..of)
            .map(|w| {
                let (start, end) = (range_start(w, len, of), range_start(w + 1, len, of));
                let (sender, mailbox) = C::unbounded();
                let units = Units::new(&positions[start as usize..end as usize]);
                let part = Partition {
                    units,
                    start,
                    mailbox,
                };
                (sender, Mutex::new(part))
            })
            .unzip();
        Self {
            partitions,
            senders,
            physics: world.physics,
            len,
            pool,
            counts: SyncCounts::default(),
        }
    }

    fn run_jobs(&mut self, jobs: &[Job], script: &Script) -> Tally {
        let (partitions, senders, physics, len) =
            (&self.partitions, &self.senders[..], &self.physics, self.len);
        let parts = self.pool.each(|me, of| {
            let mut part = partitions[me].lock().unwrap_or_else(|e| e.into_inner());
            let Partition {
                units,
                start,
                mailbox,
            } = &mut *part;
            let mut api = Local::<C> {
                units,
                start: *start,
                physics,
                senders,
                len,
                own: None,
                sent: 0,
            };
            let mut tally = Tally::default();
            for job in jobs.iter().filter(|j| owner(j.unit, len, of) == me) {
                api.own = Some(job.unit);
                run_job(&mut api, job, script, &mut tally);
            }
            let sent = api.sent;
            for sender in senders {
                C::send(sender, Mail::Done);
            }
            let mut done = 0;
            while done < of {
                match C::recv(mailbox) {
                    Mail::Push(unit, delta) => units.push(unit - *start, delta),
                    Mail::Done => done += 1,
                }
            }
            let counts = SyncCounts {
                messages: sent,
                ..SyncCounts::default()
            };
            (tally, counts)
        });
        let (tally, counts) = sum_workers(parts);
        self.counts.add(&counts);
        tally
    }

    fn end_frame(&mut self) {
        for part in &mut self.partitions {
            let part = part.get_mut().unwrap_or_else(|e| e.into_inner());
            for i in 0..part.units.len() as u32 {
                self.physics.sync(part.start + i, part.units.position(i));
            }
        }
    }

    fn positions(&mut self, f: &mut dyn FnMut(u32, [f32; 2])) {
        for part in &mut self.partitions {
            let part = part.get_mut().unwrap_or_else(|e| e.into_inner());
            part.units.visit_positions(part.start, f);
        }
    }

    fn counts(&self) -> SyncCounts {
        self.counts
    }

    fn memory_bytes(&self) -> usize {
        let units: usize = self
            .partitions
            .iter()
            .map(|p| {
                p.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .units
                    .memory_bytes()
            })
            .sum();
        units
            + self.physics.memory_bytes()
            + self.partitions.capacity() * size_of::<Mutex<Partition<C>>>()
            + self.senders.capacity() * size_of::<C::Sender>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.physics.check_invariants()?;
        let of = self.partitions.len();
        if self.senders.len() != of {
            return Err(format!("{} mailboxes for {of} workers", self.senders.len()));
        }
        let mut next = 0u32;
        for (w, part) in self.partitions.iter().enumerate() {
            let part = part.lock().unwrap_or_else(|e| e.into_inner());
            part.units.check_invariants()?;
            let end = part.start + part.units.len() as u32;
            if part.start != next || end != range_start(w + 1, self.len, of) {
                return Err(format!(
                    "worker {w} owns units {}..{end}, expected {next}..{}",
                    part.start,
                    range_start(w + 1, self.len, of)
                ));
            }
            if let Some(u) = (part.start..end).find(|&u| owner(u, self.len, of) != w) {
                return Err(format!("unit {u} of worker {w} is routed elsewhere"));
            }
            next = end;
        }
        if next != self.len {
            return Err(format!("the workers own {next} of {} units", self.len));
        }
        Ok(())
    }
}
