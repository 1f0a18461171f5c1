// Every bundled scenario in the client architecture, recorded live against the dress rehearsal and replayed keyless
// (bundled-round-trip.test-helpers.ts). The Responses architecture's half records at the same time in another worker
// (bundled-round-trip-responses.integration.test.ts), so neither worker's event loop carries more calls than one.
import { bundledRoundTrip } from './bundled-round-trip.test-helpers.ts'

bundledRoundTrip('client')
