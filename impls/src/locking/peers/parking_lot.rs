//! `call_mutex_pl`: the per-call critical section (H2) with `parking_lot::Mutex`, the lock
//! most Rust engines reach for instead of `std`'s (no poisoning, a one-byte word, an adaptive
//! spin before parking): `Mutex::lock` per API call, as its documentation shows.

use parking_lot::Mutex;

use crate::DesignKind;
use crate::DesignMeta;
use crate::locking::call_locks::{CallLock, CallLocked};
use crate::locking::{LockingDesignInfo, World};

/// The world behind a `parking_lot::Mutex`.
pub struct ParkingLotMutex(Mutex<World>);

/// `call_mutex_pl`.
pub type CallMutexPl = CallLocked<ParkingLotMutex>;

impl CallLock for ParkingLotMutex {
    const INFO: LockingDesignInfo = LockingDesignInfo {
        meta: DesignMeta {
            name: "call_mutex_pl",
            description: "H2 with parking_lot::Mutex: one lock over the world, locked by every API call",
            kind: DesignKind::Peer {
                crate_name: "parking_lot",
                version: "0.12.5",
                idiom: "Mutex::new(world); mutex.lock() per API call, the guard dropped at the call's end",
                docs: "https://docs.rs/parking_lot/0.12.5/parking_lot/type.Mutex.html",
                adapter: "Nothing beyond the idiom: `CallLock::read`/`write` are `self.0.lock()` around the call, with no poison handling (std's locks need `unwrap_or_else`). The shared `PerCall` API adds `acquisitions += 1` per call for the lock count, as `call_mutex` and `call_rwlock` pay too.",
            },
        },
        answers: "H2 (a critical section in each API call)",
        foreign_writes: true,
        threaded: true,
    };

    fn new(world: World) -> Self {
        Self(Mutex::new(world))
    }

    #[inline]
    fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.0.lock())
    }

    #[inline]
    fn write<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        f(&mut self.0.lock())
    }

    fn get_mut(&mut self) -> &mut World {
        self.0.get_mut()
    }
}
