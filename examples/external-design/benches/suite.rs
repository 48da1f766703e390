//! The few lines a user writes: run the ID-table family's matrix with `VecGen` beside every
//! built-in design (`DODBENCH_QUICK=1 cargo bench -p external-design --bench suite` in this repository).

fn main() {
    dodbench::external::main::<
        dodbench::external::replay::IdTableFamily,
        external_design::VecGen<dodbench::workloads::Payload>,
    >();
}
