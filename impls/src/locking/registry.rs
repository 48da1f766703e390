//! The one list of locking designs. Benchmarks, the CLI, the tests and the reports iterate over
//! it; adding a design is one line in [`for_each_locking_design`].

use super::{
    GameplayRunner, LockingDesignInfo, actors, api_locks, call_locks, command_buffers, peers,
    single_thread,
};

crate::registry::design_registry! {
    /// Something done once per locking design.
    pub trait LockingDesignVisitor { fn visit<R: GameplayRunner>; }
    pub fn for_each_locking_design;
    pub fn locking_designs -> LockingDesignInfo;
    pub fn find_locking_design;
    designs {
        single_thread::SingleThread;
        call_locks::CallMutex;
        peers::parking_lot::CallMutexPl;
        call_locks::CallRwLock;
        api_locks::ApiBatch;
        api_locks::ApiTry;
        peers::rayon::RayonParIter;
        peers::dashmap::DashMapUnits;
        actors::ActorsStd;
        peers::crossbeam::ActorsCrossbeam;
        command_buffers::CommandBuffers;
    }
}
