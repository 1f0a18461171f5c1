// How one feature contributes its part of the extension block: a name (its key), a scope (row or run), the
// version of its own shape, one line for the README, and its zod schema. See registry.ts for where the block lives.

import { z } from 'zod'
import { ReportingError } from '../errors.ts'

export type ExtensionScope = 'row' | 'run'

export interface ExtensionFeature<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  /** The feature's key inside the block; snake_case like the reference's own keys. */
  readonly name: Name
  /** `row`: under each row's `observability.live_evals`; `run`: under `run.configuration.live_evals`. */
  readonly scope: ExtensionScope
  /** The version of this feature's shape. An incompatible change takes a new key instead of a new meaning. */
  readonly version: string
  /** One line for the README's table of extension keys. */
  readonly summary: string
  readonly schema: Schema
}

export function defineExtensionFeature<const Name extends string, Schema extends z.ZodType>(
  feature: ExtensionFeature<Name, Schema>,
): ExtensionFeature<Name, Schema> {
  return feature
}

type FeatureShape<Features extends readonly ExtensionFeature[]> = {
  [Feature in Features[number] as Feature['name']]: z.ZodOptional<Feature['schema']>
}

/**
 * The block's schema: `version` plus every feature's key, each optional (a block carries only the features that
 * applied). Strict: a key no registered feature owns is refused by name, since it means the file was written by
 * another live-evals version or edited by hand.
 */
export function extensionBlockSchema<
  const Version extends string,
  const Features extends readonly ExtensionFeature[],
>(version: Version, scope: ExtensionScope, features: Features) {
  const shape: Record<string, z.ZodType> = {}
  for (const feature of features) {
    if (feature.scope !== scope) {
      throw new ReportingError(
        'extension_registry',
        `extension feature "${feature.name}" has scope "${feature.scope}" but is registered for ${scope}s; move it to the ${feature.scope} list in src/reporting/extensions/registry.ts`,
      )
    }
    if (feature.name === 'version' || feature.name in shape) {
      throw new ReportingError(
        'extension_registry',
        `extension key "${feature.name}" is registered twice or is reserved; give the feature another name`,
      )
    }
    shape[feature.name] = feature.schema.optional()
  }
  return z.strictObject({ version: z.literal(version), ...(shape as FeatureShape<Features>) })
}
