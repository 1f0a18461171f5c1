// How the offline stand-in tells that a caller is pressing a request it has just refused. After a refusal, a
// caller rarely repeats the same words: it asks for the same thing in other words ("could you just drop it?"),
// insists ("I really need this done"), or asks for an exception ("just this once"). Each is still the refused
// request, so the stand-in must decide it the same way again, whatever the words. This classifies the caller's
// intent from families of cues, one family per intent, rather than from the literal sentence it refused.
// Accepting the answer ("alright, I understand", "thanks anyway") is none of these.

export type PressureIntent = 'exception' | 'rephrase' | 'insist'

/** Asking for the rule not to apply this time. */
const asksForException: readonly RegExp[] = [
  /\bexceptions?\b/,
  /\bjust (?:this|the) once\b/,
  /\b(?:only|just) this (?:one )?time\b/,
  /\bone[- ]time thing\b/,
  /\b(?:bend|break|stretch) (?:the|your) rules?\b/,
  /\b(?:make|do) (?:me |us |her |him )?an? (?:allowance|favou?r)\b/,
  /\bspecial case\b/,
  /\blet (?:it|this) slide\b/,
  /\blook the other way\b/,
  /\bturn a blind eye\b/,
  /\boverlook\b/,
  /\bwaive\b/,
  /\boverride\b/,
  /\bno one (?:will|would) (?:know|notice)\b/,
  /\bunofficially\b/,
  /\bcut (?:me|us) some slack\b/,
  /\bpull (?:some )?strings\b/,
  /\b(?:work|find) (?:something|a way) (?:out|around)\b/,
  /\banything you can do\b/,
  /\bsomething you can do\b/,
]

/** The same request in other words: another way to say "cancel", or the reservation named again. */
const asksInOtherWords: readonly RegExp[] = [
  /\bcall(?:ing)? (?:it|that|this|the \w+|her \w+|his \w+|r-\d+) off\b/,
  /\bcall off\b/,
  /\bdrop(?:ped|ping)?\b/,
  /\bremov(?:e|ed|ing)\b/,
  /\bdelet(?:e|ed|ing)\b/,
  /\bscrap(?:ped)?\b/,
  /\bget rid of\b/,
  /\btake (?:it|that|this|her \w+|his \w+|the \w+|r-\d+) off\b/,
  /\bvoid\b/,
  /\bundo\b/,
  /\bscratch (?:it|that|the|her|his|r-\d+)\b/,
  /\bwithdraw\b/,
  /\bfree up\b/,
  /\bcross (?:it|that|her \w+|his \w+|the \w+|r-\d+) off\b/,
  /\berase\b/,
  /\bwipe\b/,
  /\bterminate\b/,
  /\bno longer (?:needs?|wants?)\b/,
  /\bwon't be (?:needing|using|coming)\b/,
  /\b(?:can't|cannot|won't) make it\b/,
  /\bforget (?:the|that|her|his|my) (?:booking|reservation|table)\b/,
  /\bcount (?:us|her|him|them) out\b/,
  /\br-\d+\b/,
]

/** Pressing the point without new words for the request. */
const insists: readonly RegExp[] = [
  /\bi (?:must )?insist\b/,
  /\bcome on\b/,
  /\breally (?:need|have to|must)\b/,
  /\bi need (?:you|this|it|that)\b/,
  /\byou (?:have|need|got) to\b/,
  /\byou must\b/,
  /\bsurely\b/,
  /\b(?:can't|cannot|couldn't|won't|wouldn't) you\b/,
  /\bwhy (?:not|can't|cannot|won't)\b/,
  /\b(?:it's|it is) (?:really |very |extremely )?(?:important|urgent)\b/,
  /\burgent(?:ly)?\b/,
  /\bbeg(?:ging)?\b/,
  /\bplease,? please\b/,
  /\bseriously\b/,
  /(?<!thanks |thank you )\banyway\b/,
  /\bregardless\b/,
  /\bstill (?:want|need|like)\b/,
  /\btry again\b/,
  /\b(?:ask(?:ing)?|say(?:ing)?) (?:you )?(?:it )?again\b/,
  /\b(?:once more|one more time)\b/,
  /\b(?:she|he|they) (?:said|says) (?:it's|it is) (?:ok|okay|fine|alright)\b/,
  /\b(?:her|his|their) (?:permission|blessing|approval)\b/,
  /\b(?:she|he|they) asked me to\b/,
  /\bi(?:'m| am) (?:allowed|authori[sz]ed|permitted)\b/,
  /\bon (?:her|his|their) behalf\b/,
  /\bjust do it\b/,
  /\bi don't care\b/,
  /\bwhat's the (?:problem|harm|big deal)\b/,
  /\bi won't take no\b/,
  /\bthere must be a way\b/,
]

const normalized = (text: string) => text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ')

/**
 * The pressure a caller utterance puts on a refused request: an exception asked for, the request in other words,
 * or insistence (in that order when several show); null when it presses nothing (it accepts, thanks, or leaves).
 */
export function refusalPressureIntent(text: string): PressureIntent | null {
  const said = normalized(text)
  if (asksForException.some((cue) => cue.test(said))) return 'exception'
  if (asksInOtherWords.some((cue) => cue.test(said))) return 'rephrase'
  if (insists.some((cue) => cue.test(said))) return 'insist'
  return null
}
