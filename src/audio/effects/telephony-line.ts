// The phone line's published figures, which effect metadata reports (metadata.ts). Apart from the line itself
// (telephony.ts, with the resampler and the codec), so reading or writing a report never loads either.
export const TELEPHONY_SAMPLE_RATE_HZ = 8000
export const TELEPHONY_BAND_HZ = [300, 3400] as const
export const TELEPHONY_CODEC = 'g711_mulaw'
