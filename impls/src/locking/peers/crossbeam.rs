//! `actors_crossbeam`: the actor design (H1) with `crossbeam-channel`, the channel most Rust
//! engines and job systems reach for instead of `std::sync::mpsc` (a `Sync` receiver, a
//! lock-free list per unbounded channel): one `crossbeam_channel::unbounded()` mailbox per
//! worker, `Sender::send` for every push of another unit and every `Done` marker,
//! `Receiver::recv` to drain it, as its documentation shows. Everything else is
//! [`Actors`]: the same partitions, the same count of messages.

use crossbeam_channel::{Receiver, Sender};

use crate::DesignKind;
use crate::DesignMeta;
use crate::locking::LockingDesignInfo;
use crate::locking::actors::{Actors, Channel, Mail, send_and_recv};

/// `crossbeam_channel::unbounded` as the actors' mailbox.
#[derive(Debug, Clone, Copy)]
pub struct CrossbeamChannel;

/// `actors_crossbeam`.
pub type ActorsCrossbeam = Actors<CrossbeamChannel>;

impl Channel for CrossbeamChannel {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "actors_crossbeam",
            description: "H1 with crossbeam-channel: each worker owns a contiguous slice of the units; pushes of other units are messages to their owner's unbounded channel",
            kind: DesignKind::Peer {
                crate_name: "crossbeam-channel",
                version: "0.5.17",
                idiom: "crossbeam_channel::unbounded() per worker; Sender::send / Receiver::recv",
                docs: "https://docs.rs/crossbeam-channel/0.5.17/crossbeam_channel/fn.unbounded.html",
                adapter: "Nothing beyond the idiom: `send`/`recv` are the crate's, with `.expect` on their `Result` (never an error: the design keeps both halves). The shared `Actors` code adds `owner()` routing and `sent += 1` (the message count) per push of another unit, and a `Done` from every worker to every mailbox per call, as `actors_std` pays too.",
            },
        },
        answers: "H1 (actors: workers own their units, pushes of others are messages)",
        foreign_writes: true,
        threaded: true,
    };

    type Sender = Sender<Mail>;
    type Receiver = Receiver<Mail>;

    fn unbounded() -> (Self::Sender, Self::Receiver) {
        crossbeam_channel::unbounded()
    }

    send_and_recv!();
}
