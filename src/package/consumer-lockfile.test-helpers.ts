// A lockfile for the fresh consumer project, so `npm ci --offline` installs it from the npm cache alone. The npm
// cache that `npm ci` filled holds package tarballs (by integrity) but no registry metadata, so an offline
// `npm install vitest@…` cannot resolve anything; a lockfile needs no resolution. It is the checkout's own
// lockfile cut down to what the consumer reaches (vitest and the packed live-evals with their dependencies), with
// the tarball as the live-evals entry.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

interface LockEntry {
  version?: string
  resolved?: string
  integrity?: string
  dev?: boolean
  optional?: boolean
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  [key: string]: unknown
}

interface Lockfile {
  name: string
  lockfileVersion: number
  requires?: boolean
  packages: Record<string, LockEntry>
}

/** Where Node would find `name` from the package at `from` (its own node_modules, then each parent's). */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | null {
  let base = from
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`
    if (packages[candidate] !== undefined) return candidate
    if (base === '') return null
    const cut = base.lastIndexOf('/node_modules/')
    base = cut === -1 ? '' : base.slice(0, cut)
  }
}

export function consumerLockfile(options: {
  checkoutLockfile: string
  tarball: string
  /** The tarball as package.json names it (`file:…`). */
  tarballSpec: string
  livePackage: {
    version: string
    /** The package's commands: npm links them into node_modules/.bin from the lockfile entry. */
    bin?: Record<string, string>
    dependencies: Record<string, string>
    peerDependencies: Record<string, string>
  }
  vitestVersion: string
}): Lockfile {
  const checkout = JSON.parse(readFileSync(options.checkoutLockfile, 'utf8')) as Lockfile
  const integrity = `sha512-${createHash('sha512').update(readFileSync(options.tarball)).digest('base64')}`
  const source = { ...checkout.packages }
  source['node_modules/live-evals'] = {
    version: options.livePackage.version,
    resolved: options.tarballSpec,
    integrity,
    dev: true,
    dependencies: options.livePackage.dependencies,
    peerDependencies: options.livePackage.peerDependencies,
    ...(options.livePackage.bin === undefined ? {} : { bin: options.livePackage.bin }),
  }
  const root: LockEntry = {
    name: 'consumer',
    devDependencies: { vitest: options.vitestVersion, 'live-evals': options.tarballSpec },
  }
  const kept: Record<string, LockEntry> = { '': root }
  const queue = ['node_modules/vitest', 'node_modules/live-evals']
  while (queue.length > 0) {
    const path = queue.shift() as string
    if (kept[path] !== undefined) continue
    const entry = source[path]
    if (entry === undefined) continue
    kept[path] = entry
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies }
    // Required peers the lockfile resolved (vitest's vite, for example) belong to the tree too.
    for (const [peer] of Object.entries(entry.peerDependencies ?? {})) {
      if (entry.peerDependenciesMeta?.[peer]?.optional !== true) wanted[peer] = ''
    }
    for (const name of Object.keys(wanted)) {
      const found = resolveIn(source, path, name)
      if (found !== null) queue.push(found)
    }
  }
  return { name: 'consumer', lockfileVersion: checkout.lockfileVersion, requires: true, packages: kept }
}
