// A fresh consumer project with the packed package installed, for the consumer-project tests: a copy of the
// run's shared installed consumer (shared-package.test-helpers.ts: the checkout built and packed once per run,
// test-projects/consumer installed from the tarball with `npm ci --offline`). Each test file gets its own folder,
// so it may change the project.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { consumerCopy, type Ran, run, sharedPackage, userEnvironment } from './shared-package.test-helpers.ts'

export {
  CONSUMER_TEMPLATE,
  NODE,
  type Ran,
  ROOT,
  run,
  SHARED_PACKAGE_TIMEOUT_MS,
  userEnvironment,
} from './shared-package.test-helpers.ts'

export interface InstalledConsumer {
  /** A scratch folder of this test file's own, holding the consumer. */
  work: string
  /** The consumer project's folder. */
  consumer: string
  /** The tarball's file name. */
  packed: string
  /** The tarball (absolute path; shared by the run, never change it). */
  tarball: string
  /** What `npm ci` printed and returned. */
  installed: Ran
}

/** The run's packed package, installed into a copy of test-projects/consumer of this test file's own. */
export async function installConsumerProject(prefix = 'live-evals-package-'): Promise<InstalledConsumer> {
  const shared = await sharedPackage()
  const work = mkdtempSync(join(tmpdir(), prefix))
  const consumer = consumerCopy(shared, join(work, 'consumer'))
  return { work, consumer, packed: shared.packed, tarball: shared.tarball, installed: shared.installed }
}

/** The consumer's Vitest, run by `node` (a path to a Node binary) from the consumer's folder. */
export function runConsumerVitest(
  node: string,
  consumer: string,
  args: string[] = ['run'],
  env: NodeJS.ProcessEnv = userEnvironment(),
): Ran {
  return run(node, [join(consumer, 'node_modules/vitest/vitest.mjs'), ...args], consumer, env)
}
