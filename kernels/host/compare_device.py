#!/usr/bin/env python3
"""Compares what device_query prints under `tcsim exec --arch sm_90a` with what it printed on a real
H200 (golden/h200_device.json): every attribute and occupancy answer must be equal, except the ones
listed here with the reason tcsim differs. Exit 0 when nothing else differs.

usage: compare_device.py H200.json TCSIM.json
"""
import json
import sys

# cuDeviceGetAttribute numbers (cuda.h 13.0) where tcsim deliberately reports something else.
ABSENT = {  # capabilities tcsim does not provide (tools/cuda_driver/device_props.cc)
    83: "MANAGED_MEMORY", 86: "HOST_NATIVE_ATOMIC_SUPPORTED", 88: "PAGEABLE_MEMORY_ACCESS",
    89: "CONCURRENT_MANAGED_ACCESS", 92: "CAN_USE_STREAM_MEM_OPS_V1", 93: "CAN_USE_64_BIT_STREAM_MEM_OPS_V1",
    94: "CAN_USE_STREAM_WAIT_VALUE_NOR_V1", 96: "COOPERATIVE_MULTI_DEVICE_LAUNCH", 98: "CAN_FLUSH_REMOTE_WRITES",
    100: "PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES", 101: "DIRECT_MANAGED_MEM_ACCESS_FROM_HOST",
    102: "VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED", 103: "HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED",
    107: "GENERIC_COMPRESSION_SUPPORTED", 110: "GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED",
    112: "SPARSE_CUDA_ARRAY_SUPPORTED", 114: "TIMELINE_SEMAPHORE_INTEROP_SUPPORTED", 116: "GPU_DIRECT_RDMA_SUPPORTED",
    117: "GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS", 118: "GPU_DIRECT_RDMA_WRITES_ORDERING",
    119: "MEMPOOL_SUPPORTED_HANDLE_TYPES", 121: "DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED",
    122: "CAN_USE_64_BIT_STREAM_MEM_OPS", 123: "CAN_USE_STREAM_WAIT_VALUE_NOR", 124: "DMA_BUF_SUPPORTED",
    125: "IPC_EVENT_SUPPORTED", 128: "HANDLE_TYPE_FABRIC_SUPPORTED", 129: "UNIFIED_FUNCTION_POINTERS",
    132: "MULTICAST_SUPPORTED", 141: "HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED",
    142: "HOST_NUMA_MEMORY_POOLS_SUPPORTED", 143: "HOST_NUMA_MULTINODE_IPC_SUPPORTED", 144: "HOST_MEMORY_POOLS_SUPPORTED",
    145: "HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED", 146: "HOST_ALLOC_DMA_BUF_SUPPORTED",
    91: "CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM",
}
MACHINE = {  # where the H200 sits, not what it is
    33: "PCI_BUS_ID", 34: "PCI_DEVICE_ID", 50: "PCI_DOMAIN_ID", 139: "GPU_PCI_DEVICE_ID", 140: "GPU_PCI_SUBSYSTEM_ID",
    130: "NUMA_CONFIG", 131: "NUMA_ID", 134: "HOST_NUMA_ID", 133: "MPS_ENABLED", 32: "ECC_ENABLED",
    17: "KERNEL_EXEC_TIMEOUT", 20: "COMPUTE_MODE",
}


def main():
    hw, sim = (json.load(open(p)) for p in sys.argv[1:3])
    bad = []
    if "H200" not in sim["name"]:
        bad.append(f"name {sim['name']!r} does not say H200")
    if hw["total_mem"] != sim["total_mem"]:
        bad.append(f"total_mem: H200 {hw['total_mem']}, tcsim {sim['total_mem']}")
    same = 0
    for k, v in hw["attributes"].items():
        a = int(k)
        t = sim["attributes"].get(k)
        if a in ABSENT:
            if t != 0:
                bad.append(f"attribute {a} ({ABSENT[a]}): tcsim reports {t}, should report absent (0)")
            continue
        if a in MACHINE:
            continue
        if v != t:
            bad.append(f"attribute {a}: H200 {v}, tcsim {t}")
        else:
            same += 1
    for k, v in hw["occupancy"].items():
        if sim["occupancy"].get(k) != v:
            bad.append(f"{k}: H200 {v}, tcsim {sim['occupancy'].get(k)}")
        else:
            same += 1
    for b in bad:
        print("DIFFERS:", b)
    print(f"{same} values equal the H200's; {len(bad)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
