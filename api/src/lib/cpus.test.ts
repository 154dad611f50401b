import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cgroupCpuLimit, usableCpus, type CgroupFiles } from './cpus';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qc-cpus-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A fresh fake cgroup mount under `dir`: `files` maps paths under the mount to their contents. */
function cgroups(self: string, files: Record<string, string>): CgroupFiles {
  const root = path.join(dir, `cgroup${++n}`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  mkdirSync(root, { recursive: true });
  writeFileSync(`${root}.self`, self);
  return { root, self: `${root}.self` };
}

test('cgroup v2 in a container (docker --cpus=2): the quota at the mount root', () => {
  expect(cgroupCpuLimit(cgroups('0::/\n', { 'cpu.max': '200000 100000\n' }))).toBe(2);
});

test('cgroup v2 under systemd (CPUQuota=150%): the service group, rounded up', () => {
  const files = cgroups('0::/system.slice/qconsole.service\n', {
    'system.slice/qconsole.service/cpu.max': '150000 100000\n',
    'system.slice/cpu.max': 'max 100000\n',
  });
  expect(cgroupCpuLimit(files)).toBe(2);
});

test('the tightest quota on the way up wins', () => {
  const files = cgroups('0::/a/b\n', { 'a/b/cpu.max': '800000 100000', 'a/cpu.max': '300000 100000' });
  expect(cgroupCpuLimit(files)).toBe(3);
});

test('cgroup v1 (docker on an older host): cpu.cfs_quota_us over cpu.cfs_period_us', () => {
  const files = cgroups('12:pids:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n', {
    'cpu/cpu.cfs_quota_us': '100000\n',
    'cpu/cpu.cfs_period_us': '100000\n',
  });
  expect(cgroupCpuLimit(files)).toBe(1);
});

test('no quota: unlimited v2, v1 at -1, or no cgroup files at all', () => {
  expect(cgroupCpuLimit(cgroups('0::/\n', { 'cpu.max': 'max 100000\n' }))).toBeNull();
  expect(
    cgroupCpuLimit(cgroups('4:cpu,cpuacct:/\n', { 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000' })),
  ).toBeNull();
  expect(cgroupCpuLimit({ root: path.join(dir, 'none'), self: path.join(dir, 'none', 'self') })).toBeNull();
});

test('usableCpus: the scheduler’s count capped by the quota, at least 1', () => {
  const cpus = os.availableParallelism();
  expect(usableCpus(cgroups('0::/\n', { 'cpu.max': '100000 100000' }))).toBe(1);
  expect(usableCpus(cgroups('0::/\n', { 'cpu.max': `${(cpus + 4) * 100000} 100000` }))).toBe(cpus);
  expect(usableCpus(cgroups('0::/\n', {}))).toBe(cpus);
});
