#!/usr/bin/env bash
# A single-node Slurm cluster from Debian's packages (slurm-wlm, munge), for trying the job-array
# examples and for SlurmFarmTest: munged, slurmctld and slurmd on this machine, everything under DIR,
# no systemd, no cgroups, no accounting. Needs root (the daemons run as root here).
#   docs/farms/single-node-slurm.sh start DIR    prints "export SLURM_CONF=DIR/slurm.conf" when the node is up
#   docs/farms/single-node-slurm.sh stop DIR
set -euo pipefail
action=${1:?start or stop}
dir=$(realpath -m "${2:?a folder for the cluster state}")
if [ "$action" = stop ]; then # and wait for each daemon to be gone, so that DIR can be removed
  for pid in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [ -f "$pid" ] || continue
    p=$(cat "$pid")
    kill "$p" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  done
  exit 0
fi
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
host=$(hostname -s)
cpus=$(nproc)
cat > "$dir/slurm.conf" <<CONF
ClusterName=convcert
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=farm Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
munged --force --socket="$dir/munge/munge.socket" --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
  --seed-file="$dir/munge/seed" 2>>"$dir/munged.log"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 1
done
echo "slurm did not come up; see $dir/*.log" >&2
exit 1
