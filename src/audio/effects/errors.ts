// One error type for acoustic-condition problems a user can fix: an unknown condition, an override out of its
// bounds, a background recording that is missing or unusable. `field` names the setting at fault, in the
// spelling the user wrote it (the §5 override key, or "condition").

export class AudioRealismError extends Error {
  readonly field: string

  constructor(field: string, message: string) {
    super(message)
    this.name = 'AudioRealismError'
    this.field = field
  }
}
