import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface CgroupFiles {
  /** Where the cgroup hierarchies are mounted. */
  root: string;
  /** This process's groups, one per hierarchy ("0::/path" for cgroup v2, "N:cpu,cpuacct:/path" for v1). */
  self: string;
}

const SYSTEM: CgroupFiles = { root: '/sys/fs/cgroup', self: '/proc/self/cgroup' };

/**
 * CPUs the api may use: the scheduler's count (os.availableParallelism, which sees a cpuset) capped
 * by a cgroup CPU quota (`docker --cpus=2`, systemd's CPUQuota=), which Node does not read: without
 * it a container limited to 2 CPUs on a 64-core host would start 8 workers.
 */
export function usableCpus(files: CgroupFiles = SYSTEM): number {
  const cpus = os.availableParallelism();
  return Math.max(1, Math.min(cpus, cgroupCpuLimit(files) ?? cpus));
}

/** The tightest CPU quota on this process's cgroup or an ancestor, rounded up to whole CPUs; null when none. */
export function cgroupCpuLimit(files: CgroupFiles = SYSTEM): number | null {
  const limits: number[] = [];
  for (const line of (readText(files.self) ?? '').split('\n')) {
    const [id, controllers, group] = line.split(':', 3) as [string, string?, string?];
    if (group === undefined) continue;
    const v2 = id === '0' && controllers === '';
    if (!v2 && !controllers!.split(',').includes('cpu')) continue;
    // The group and each ancestor up to the mount's root: in a container the hierarchy is often
    // mounted at the container's own group, which the path from the host's view does not name.
    for (let dir = path.posix.normalize(`/${group}`); ; dir = path.posix.dirname(dir)) {
      const limit = v2 ? v2Limit(path.join(files.root, dir)) : v1Limit(path.join(files.root, 'cpu', dir));
      if (limit !== null) limits.push(limit);
      if (dir === '/') break;
    }
  }
  return limits.length ? Math.min(...limits) : null;
}

/** cgroup v2 `cpu.max`: "<quota> <period>" in µs, or "max <period>" when unlimited. */
function v2Limit(dir: string): number | null {
  const [quota, period] = (readText(path.join(dir, 'cpu.max')) ?? '').trim().split(/\s+/);
  return cpusOf(Number(quota), Number(period));
}

/** cgroup v1 `cpu.cfs_quota_us` (-1 when unlimited) over `cpu.cfs_period_us`. */
function v1Limit(dir: string): number | null {
  return cpusOf(
    Number(readText(path.join(dir, 'cpu.cfs_quota_us'))?.trim()),
    Number(readText(path.join(dir, 'cpu.cfs_period_us'))?.trim()),
  );
}

function cpusOf(quota: number, period: number): number | null {
  return Number.isFinite(quota) && Number.isFinite(period) && quota > 0 && period > 0
    ? Math.ceil(quota / period)
    : null;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
