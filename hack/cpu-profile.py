#!/usr/bin/env python3
"""Where a test run's CPU goes, by program.

  hack/cpu-profile.py record DIR   samples every process's user+system CPU every 3 s until DIR/done exists, then writes
                                   DIR/procs.tsv (pid, CPU ticks, command line); start it beside ./hack/test.sh and
                                   `touch DIR/done` when the run ends
  hack/cpu-profile.py report DIR   sums DIR/procs.tsv by program: CPU seconds, share, processes

Processes that start and end between two samples are missed; the report says how much CPU it accounts for.
"""
import collections
import os
import re
import sys
import time

PROGRAMS = [
    # The installed clusters' API servers run with flags of their own (WorkloadClusters.API_SERVER_FLAGS).
    (r'kube-apiserver.*--watch-cache=false', 'kube-apiserver (installed clusters)'),
    (r'kube-apiserver', 'kube-apiserver (hubs)'),
    (r'/etcd ', 'etcd'),
    (r'assisted-service-admission|webadmission', 'assisted-service admission'),
    (r'assisted-service --port', 'assisted-service'),
    (r'postgres', 'postgres'),
    (r'capi-manager', 'Cluster API'),
    (r'capm3-manager', 'CAPM3'),
    (r'baremetal-operator', 'baremetal-operator'),
    (r'kube-controller-manager', 'kube-controller-manager'),
    (r'kwok', 'kwok'),
    (r'argocd|redis', 'Argo CD'),
    (r'bootstrap-provider', 'bootstrap provider (JVMs)'),
    (r'controlplane-provider', 'control-plane provider (JVMs)'),
    (r'surefirebooter', 'test JVMs (surefire)'),
    (r'plexus-classworlds', 'Maven'),
    (r'java', 'other JVMs'),
]


def record(directory):
    seen = {}
    first_sweep = True
    while not os.path.exists(os.path.join(directory, 'done')):
        for pid in filter(str.isdigit, os.listdir('/proc')):
            try:
                with open(f'/proc/{pid}/stat', 'rb') as f:
                    stat = f.read().decode(errors='replace')
                fields = stat[stat.rindex(')') + 2:].split()
                ticks = int(fields[11]) + int(fields[12])
                key = (pid, fields[19])  # a pid is reused: told apart by its start time
                if key not in seen:
                    with open(f'/proc/{pid}/cmdline', 'rb') as f:
                        command = re.sub(r'\s', ' ', f.read().replace(b'\0', b' ').decode(errors='replace'))
                    # What ran before the recording began is not the run's.
                    seen[key] = [ticks, command, ticks if first_sweep else 0]
                else:
                    seen[key][0] = ticks
            except (OSError, ValueError, IndexError):
                pass  # gone meanwhile
        first_sweep = False
        time.sleep(3)
    with open(os.path.join(directory, 'procs.tsv'), 'w') as out:
        for (pid, _), (ticks, command, before) in seen.items():
            out.write(f'{pid}\t{ticks - before}\t{command}\n')


def program(command):
    for pattern, name in PROGRAMS:
        if re.search(pattern, command):
            return name
    return os.path.basename(command.split(' ')[0]) or '?'


def report(directory):
    ticks = collections.Counter()
    processes = collections.Counter()
    with open(os.path.join(directory, 'procs.tsv'), errors='replace') as lines:
        for line in lines:
            parts = line.rstrip('\n').split('\t', 2)
            if len(parts) == 3 and parts[1].isdigit():
                name = program(parts[2])
                ticks[name] += int(parts[1])
                processes[name] += 1
    total = sum(ticks.values()) or 1
    hz = os.sysconf('SC_CLK_TCK')
    for name, t in ticks.most_common(25):
        print(f'{t / hz:8.0f} s  {100 * t / total:5.1f} %  {processes[name]:4d} processes  {name}')
    print(f'{total / hz:8.0f} s in all')


if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] not in ('record', 'report'):
        sys.exit(__doc__)
    (record if sys.argv[1] == 'record' else report)(sys.argv[2])
