// Moved to src/inputs/read-input-file.ts, the one bounded reader of every file a user names; this name stays
// so existing imports keep working.
export {
  InputFileError,
  type InputFileRefusal,
  readInputFile,
} from '../inputs/read-input-file.ts'
