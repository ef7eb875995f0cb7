#!/bin/bash
# Starts a real single-node Slurm cluster (Debian slurm-wlm + munge) for the cluster tests
# (tests/it/cluster.rs: split -> sbatch --wait run-slurm.sbatch -> merge), on a root machine
# without systemd, such as CI. Adapted from the workplace recipe shared/tools/slurm-local.sh.
# Usage: .ci/slurm-setup.sh           start (does nothing when a node is already idle)
#        .ci/slurm-setup.sh --stop    stop the daemons it started
set -euo pipefail
if [ "${1:-}" = "--stop" ]; then
  for f in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  exit 0
fi
if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
  echo "slurm-setup: a Slurm node is already up"; exit 0
fi
command -v slurmctld >/dev/null || {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq slurm-wlm munge >/dev/null
}

# --- munge ---
[ -s /etc/munge/munge.key ] || mungekey --create --force   # postinst normally creates it
chown munge:munge /etc/munge/munge.key; chmod 0400 /etc/munge/munge.key
mkdir -p /run/munge && chown munge:munge /run/munge && chmod 0755 /run/munge
su -s /bin/sh munge -c /usr/sbin/munged          # daemonizes; pid in /run/munge/munged.pid
munge -n | unmunge >/dev/null                    # sanity check

# --- slurm.conf ---
H=$(hostname -s); C=$(nproc); M=$(( $(free -m | awk '/^Mem:/{print $2}') - 512 ))
getent hosts "$H" >/dev/null || echo "127.0.0.1 $H" >> /etc/hosts
mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<EOF
ClusterName=ci
SlurmctldHost=$H
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MinJobAge=4
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
NodeName=$H CPUs=$C RealMemory=$M State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
EOF

# --- daemons ---
slurmctld            # daemonizes; pid in /run/slurmctld.pid
slurmd               # daemonizes; pid in /run/slurmd.pid
for i in $(seq 60); do
  s=$(sinfo -h -n "$H" -o %T 2>/dev/null || true)
  [ "$s" = idle ] && break
  case "$s" in down*|drain*) scontrol update nodename="$H" state=resume || true;; esac
  sleep 0.5
done
[ "$s" = idle ] || { echo "node not idle: $s"; tail -n 30 /var/log/slurm/*.log; exit 1; }
sinfo

# --- job array test ---
T=$(mktemp -d)
sbatch --wait --array=0-7 -o "$T/slurm-%A_%a.log" \
  --wrap "echo \$SLURM_ARRAY_TASK_ID > $T/out.\$SLURM_ARRAY_TASK_ID"
for i in $(seq 0 7); do [ "$(cat "$T/out.$i")" = "$i" ]; done
rm -rf "$T"
echo "array OK"

echo "slurm-setup: cluster up (stop with: $0 --stop)"
