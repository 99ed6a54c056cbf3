/**
 * The forms a reply waits for the person in, one row per language (SPEC §4.8, 0.5), and the forms in which
 * it hands the testing to them (§4.23). `question.ts` reads this table: each of its patterns is the union of
 * one column over the rows whose script the sentence is written in, compiled once. Adding a language is
 * adding a row; every row has the five forms of §4.8 — a question to the person (`addresses`), a request
 * to act (`imperative`, `polite`, `giveBack`, `testRequest`, `testNext`), waiting for their input or approval
 * (`awaits`), a hand-over under a condition (`handOver`), options to choose from (`choose`) — what makes a
 * request a sign-off (`condition`, `offer`), and the two hand-over forms of §4.23 (`tests`, `untested`).
 *
 * Every cell is the source of a pattern read in any case (`iu`), one sentence at a time, on text whose code,
 * URLs and quotations are hidden. Latin and Cyrillic words are whole (`whole()`); CJK forms need no
 * boundary. No cell may backtrack beyond its sentence: repetitions are bounded (`within()`).
 */

/** Scripts a sentence may be written in: a row is read only for sentences holding one of its scripts. */
export const LATIN = 1;
export const CYRILLIC = 2;
export const HAN = 4;
export const KANA = 8;
export const HANGUL = 16;

/** The scripts a text holds, as a mask of the bits above. Linear, no allocation. */
export function scriptsOf(text: string): number {
  let mask = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      if ((unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7a) mask |= LATIN;
    } else if (unit >= 0xc0 && unit <= 0x24f) mask |= LATIN;
    else if (unit >= 0x400 && unit <= 0x4ff) mask |= CYRILLIC;
    else if (unit >= 0x3040 && unit <= 0x30ff) mask |= KANA;
    else if ((unit >= 0x4e00 && unit <= 0x9fff) || (unit >= 0x3400 && unit <= 0x4dbf)) mask |= HAN;
    else if ((unit >= 0xac00 && unit <= 0xd7af) || (unit >= 0x1100 && unit <= 0x11ff) || (unit >= 0x3130 && unit <= 0x318f)) mask |= HANGUL;
  }
  return mask;
}

/** Not inside a word, in any script: what a lexicon word has before and after it. */
export const WORD_START = "(?<![\\p{L}\\p{N}])";
export const WORD_END = "(?![\\p{L}\\p{N}])";

/** The words of a lexicon, each whole. */
export function whole(lexicon: RegExp): string {
  return `${WORD_START}(?:${lexicon.source})${WORD_END}`;
}

/** At most `most` more characters of the same sentence. */
export function within(most: number): string {
  return `[^.!?。！？]{0,${most}}?`;
}

/** One language's forms. A cell left out is a form the language does not need (or says with another cell). */
export interface Forms {
  /** BCP 47 tag. */
  readonly language: string;
  /** The scripts (bits above) a sentence must hold for the row to be read. */
  readonly scripts: number;
  /**
   * Common words (whole, in lower case, `|` between them) that show a reply is written in the language, for a row whose script other rows share: the
   * row is read only for replies that hold one (so an English reply does not pay for seven other Latin rows).
   * A row without marks is read for every reply in its script. English is read for every reply (agents answer
   * in it whatever the person writes): its marks only tell an English reply from one in which no row's marks
   * are found, for which every row is read.
   */
  readonly marks?: string;
  /** Letters that show a reply is written in the language (`ñ`, `ř`), for a row with marks. */
  readonly letters?: string;

  // -- a question to the person
  /** A question that speaks to the person (you, I, we, a polite question ending). */
  readonly addresses?: string;
  /** The person named (a question opened by a question word asks them only with one of these). */
  readonly secondPerson?: string;
  /** The ending of a question that carries no question mark (a polite `か。`), at the end of a sentence. */
  readonly questionEnd?: string;
  /** A question word at the start of a sentence. */
  readonly whOpener?: string;
  /** A question word with the agent asking what it should do (`should I`). */
  readonly agentAsks?: string;
  /** The next sentence answers the question (`Yes.`, `I will.`). */
  readonly answered?: string;
  /** A question asked of nobody. */
  readonly rhetorical?: string;
  /** A question that speaks to the person without a pronoun (`Ready to …?`). */
  readonly asksOpener?: string;
  /** A question's word order with its mark left out. */
  readonly questionOrder?: string;
  /** A question that sets up what follows (`What if …?`). */
  readonly hypothetical?: string;

  // -- a request to act
  /** An explicit request for what only the person can give (0.3, on the last line too). */
  readonly request?: string;
  /** Words that may open an imperative before its verb (`Now,`, `Please`): a pattern of one such word. */
  readonly leadIn?: string;
  /** An imperative at the start of a sentence (after the lead-in). */
  readonly imperative?: string;
  /** Under a heading that hands the turn over: a verb alone is an imperative. */
  readonly turnVerb?: string;
  /** A request addressed to the person anywhere in the sentence: please, can you, you need to. */
  readonly polite?: string;
  /** Something the person is asked to give back: output, a log, a choice, a confirmation. */
  readonly giveBack?: string;
  /** Run it, then tell me. */
  readonly reportBack?: string;
  /** The person does it because the agent cannot: yourself, on your machine. */
  readonly yourself?: string;
  /** Reload what runs and check the change. */
  readonly lookAtChange?: string;
  /** The agent's next step hangs on the person's act: so I can, to proceed, then I'll. */
  readonly continues?: string;
  /** A request to test what was built, the whole sentence. */
  readonly testRequest?: string;
  /** An act, then a check or a retry, as the next step (`Restart the server and check the log in`, `Log in and try again`). */
  readonly testNext?: string;
  /** Steps only the person takes, under a `Next steps` heading. */
  readonly personStep?: string;

  // -- waiting for their input or approval
  readonly awaits?: string;
  /** Nothing is awaited after all: a negation. */
  readonly negated?: string;

  // -- a hand-over under a condition
  /** The agent's next step once the person has acted (`Once you send the files, I'll …`). */
  readonly handOver?: string;
  /** A line that depends on the answer to the question right above it (`If yes, …`). */
  readonly depends?: string;

  // -- options to choose from
  /** A line ending in `:` that asks the person to choose among the options below it. */
  readonly choose?: string;

  // -- what makes a request a sign-off
  /** Sentence openers that make a request conditional. */
  readonly condition?: string;
  /** A condition or an offer anywhere in the sentence. */
  readonly offer?: string;

  // -- headings
  /** Headings that hand the turn to the person (`Ready to test`). */
  readonly turnHeading?: string;
  /** Headings that name the next steps, which may be the agent's own. */
  readonly nextHeading?: string;

  // -- §4.23: the testing handed to the person
  /** Asks the person to test or try the result now (`Please test the login page`). */
  readonly tests?: string;
  /** Says the agent could not run or test the result (`I couldn't run the UI tests`). */
  readonly untested?: string;
}

const EN_VERBS =
  /run|rerun|re-run|execute|test|try|retry|reproduce|ping|check|verify|restart|reload|refresh|relaunch|re-launch|launch|start|stop|open|close|quit|exit|log in|login|log into|log out|sign in|select|choose|pick|confirm|approve|review|share|send|paste|post|provide|upload|attach|add|grant|enter|type|click|press|visit|navigate|install|set|copy|reply|answer|decide|specify|clarify|tell|give|use|pull|push|merge|deploy|rebuild|build|update|clear|delete|remove|kill|create|save|restore|authorize|authorise|authenticate|connect|accept|allow|enable|disable/;

const english: Forms = {
  language: "en",
  scripts: LATIN,
  marks: "the|and|is|are|this|that|for|with|you|we|will|can|have|has|was|it|of|done|now|should|would|your|what|which",
  addresses: /\b(?:you|your|I|me|we|us)\b/u.source,
  secondPerson: whole(/you|your|yours/),
  whOpener: `^${whole(/why|how|what|where|when|who|which/)}`,
  agentAsks: whole(/should I|shall I|should we|shall we|do I|do we|must I/),
  answered: [
    `^${whole(
      /yes|yeah|yep|yup|no|nope|nah|sure|of course|absolutely|definitely|certainly|indeed|not really|not yet|not quite|not at all|i will|i would|i won't|i did|i didn't|i went|i chose|i picked|i opted|i settled|i used|i've gone|i have gone|i've chosen|i have chosen|i've picked|i've used|we went|we chose|i do|i don't|i can|i can't|i think|i believe|i guess|i doubt|i go|i continue|i proceed|i start|i keep|i'll|i'd|i'm going|i am going|let's|we will|we won't|we did|we can|we do|we'll|because|since|turns out|answer|the answer|short answer|proceeding|continuing|going ahead|moving on/,
    )}`,
    `^let me${WORD_END}(?! know)`,
    `^[a-z]+ing now${WORD_END}`,
  ].join("|"),
  rhetorical: /^(?:who (?:knew|would have (?:thought|guessed))|what could (?:possibly )?go wrong|how (?:cool|neat|great) is that|why not)\b/u.source,
  asksOpener: `^${whole(
    /ready|ok|okay|good to go|happy|want|proceed|continue|go ahead|sound good|sounds good|sound ok|sounds ok|sounds okay|sounds right|look good|looks good|looks ok|looks okay|looks right|any thoughts|any preferences|any objections|any feedback|any questions|any concerns|any other|anything else|agree|agreed|approve|approved|alright/,
  )}`,
  questionOrder: `^${whole(/do you want|do you prefer|would you like|would you prefer|want me to|shall I|should I|shall we|should we|may I|can I go ahead|is it ok if I|is it okay if I/)}`,
  hypothetical: `^${whole(/what if|what about|did you know|ever wondered|wondering|curious|want to know|do you want to know|want to learn|want more details|need more details|interested/)}`,

  request: [
    /\b(?:please|kindly)\s+(?:add|attach|share|provide|send|paste|upload|confirm|approve|choose|pick|select|specify|clarify|decide|reply|grant)\b/u.source,
    /\b(?:let me know|tell me)\s+(?:which|whether)\b/u.source,
    /\b(?:could|can|would) you(?: please)?\s+(?:add|attach|share|provide|send|paste|upload|confirm|approve|choose|pick|specify|tell me)\b/u.source,
    /\bI(?:'ll| will|'d| would)? need you to\s+(?:add|attach|share|provide|send|paste|upload|confirm|approve|choose|pick|specify|tell me|let me know)\b/u.source,
    /\b(?:once|as soon as|after) you(?:'ve| have)?\s+(?:added|shared|provided|sent|pasted|uploaded|confirmed|approved|chosen|picked|add|share|provide|send|paste|upload|confirm|approve|choose|pick)\b.{0,200}?\b(?:I(?:'ll| will| can)|we(?:'ll| can))\b/u.source,
    /\bplease\s+(?:run|execute|type|enter)\b.{0,200}?\b(?:to|so (?:that )?I can|and I(?:'ll| will)|then I(?:'ll| will)|before I)\s+(?:proceed|continue|resume|go on)\b/u.source,
  ].join("|"),
  leadIn: whole(/now|then|next|first|finally|also|so|and|just|ok|okay|alright|great|please|kindly|go ahead and|be sure to|make sure to|remember to/),
  imperative: `^(?:${EN_VERBS.source})(?:\\s+${whole(
    /the|a|an|this|that|these|those|it|them|your|my|our|me|us|all|both|each|any|some|again|now|out|up|in|on|off|over|back|down|with|to|and|then|from|into|through|for|here|there|first|once|one|everything|something|anything|whether|which|what|how|if|when|please/,
  )}|\\s*[\u{E002}"“'‘«]|\\s*[.!]*$)`,
  turnVerb: `^(?:${EN_VERBS.source})${WORD_END}`,
  polite: whole(
    /please|kindly|can you|could you|would you|will you|you need to|you'll need to|you will need to|you would need to|you'd need to|you have to|you'll have to|you will have to|you must|I need you to|I'll need you to|I will need you to|I'd need you to|I would need you to/,
  ),
  giveBack: [
    `${whole(/share|send|paste|post|provide|upload|attach|forward|drop|copy/)}${within(80)}${whole(/with me|to me|me|here|back|below|into the chat|in the chat|in this chat|into this chat|to the chat|to this chat|in the conversation|in our conversation|in this conversation/)}`,
    `${whole(/share|send|paste|post|provide|upload|attach|give me|show me|copy/)}\\s+(?:me\\s+)?(?:${whole(/the|your|a|any|all|its|their|what/)}\\s+)?(?:[\\w-]+\\s+){0,3}?${whole(
      /output|log|logs|error|errors|result|results|response|screenshot|screenshots|stack trace|stacktrace|traceback|content|contents|details|info|information|credentials|token|answer|feedback|decision|preference|preferences|choice|version|console|says|printed|shows/,
    )}`,
    `${whole(/add|attach|upload/)}${within(60)}${whole(/to the chat|to this chat|to our chat|to the conversation|to this conversation/)}`,
    `${whole(/tell me|let me know|report back|reply with|answer with|ping me|notify me|message me/)},?\\s*${whole(/which|whether|what|how|when|once|as soon as|where|who|the|if/)}`,
    whole(/confirm|approve|decide|specify|clarify|report back/),
    `${whole(/choose|select|pick/)}\\s*${whole(
      /one|which|between|whether|an option|the option|your option|an approach|the approach|your approach|a variant|the variant|an alternative|the alternative|a plan|the plan|a name|the name|a version|the version|your preferred option|your preferred approach|from the options|from these options|from the choices|from these choices/,
    )}`,
  ].join("|"),
  reportBack: `^${whole(/run|rerun|re-run|execute|test|reproduce|retry|restart|reload|refresh|launch|relaunch|install|verify/)}${within(120)}${whole(/and|then/)},?\\s+${whole(/let me know|tell me/)}[\\s.!]*$`,
  yourself: whole(/yourself|on your side|on your end|on your machine|from your machine|from your terminal|in your terminal/),
  lookAtChange: `^${whole(/refresh|hard-refresh|reload|restart|relaunch|reopen/)}\\s+(?:${whole(/the|your|this|that/)}\\s+)?(?:[\\w-]+\\s+)?${whole(
    /page|pages|app|application|browser|tab|window|site|preview|server|extension|editor|simulator|emulator|ui|it|pi|vs code|vscode/,
  )}${within(40)}${whole(/to check|and check|to verify|and verify|to confirm|and confirm/)}`,
  continues: [
    `${whole(/I can't|I cannot|I can not|I'm unable to|I am unable to|I won't be able to/)}${within(40)}${whole(/until|without|unless/)}`,
    whole(
      /so I can|so I could|so I may|so we can|so we could|so that I can|so that I could|so that we can|to proceed|to continue|to resume|to go on|to move on|to unblock|to let me continue|to let me proceed|to let me finish|to let me go on|before I|before we|until I|until we|and I'll|and I will|and I can|and I could|and we'll|and we can|then I'll|then I will|then I can|then I could|then we'll|then we can|after that I'll|after that I can|afterwards I'll|once done, I'll|once done, I can|once that's done, I'll|once that's done, I can|once it's done, I'll|once you're done, I'll|once you're done, I can|I'll wait|I will wait|I'll hold off|I'll pause|I'll be waiting|I'll stand by|I'm waiting|I am waiting|I'm blocked|I am blocked|I can't continue|I cannot continue|I can't proceed|I cannot proceed|I can't go on|I cannot go on|I can't finish|I cannot finish/,
    ),
  ].join("|"),
  testRequest: `^(?:${whole(/please|now|so|just|go ahead and|ok|okay/)},?\\s+)*(?:${whole(/launch|open|start|run|reload|refresh|restart|rebuild|relaunch|fire up|spin up/)}${within(60)}\\s+and\\s+)?(?:please\\s+)?test(?:\\s+(?:${
    /it|this|that|them|things|everything/.source
  }|the(?:\\s+[\\w-]+){0,2}?\\s+(?:${/changes|change|fix|fixes|app|application|page|site|feature|flow|build|update|ui|login|form|endpoint|button|screen|version/.source})))?(?:\\s+(?:${
    /out|now|again|manually|yourself|locally|please|in the browser|in your browser/.source
  }))*$`,
  testNext: [
    `^(?:${whole(/restart|reload|refresh|relaunch|reopen|rerun|re-run|run|execute|start|launch|open|log in|login|sign in|log out|reinstall|reconnect|reauthenticate|clear/)})${within(80)}${whole(/and|then/)},?\\s+(?:then\\s+)?(?:${whole(/try again|retry|test|verify|confirm|see whether|see if/)}|${whole(/check/)}(?!\\s+out))`,
    `^(?:please\\s+)?${whole(/try|retry/)}(?:\\s+${whole(/it|that|this|the \w+/)})?\\s+again(?:\\s+${whole(/now|please/)})?[.!]*$`,
  ].join("|"),
  personStep: `^${whole(
    /restart|reload|refresh|relaunch|re-launch|launch|open|close|quit|log in|login|sign in|select|choose|pick|confirm|approve|share|send|paste|provide|upload|attach|type|enter|click|visit|grant|reply|answer|tell me|let me know/,
  )}`,
  awaits: [
    `${whole(/await|awaits|awaiting|wait for|waits for|waiting for|wait on|waiting on|pending|need|needs|needed|I'll need|I will need|depends on|depend on|depending on|hinges on/)}\\s+${whole(/your|you to/)}${within(30)}${whole(
      /approval|go-ahead|go ahead|green light|confirmation|confirm|decision|decide|input|feedback|answer|answers|reply|response|review|sign-off|signoff|ok|okay|permission|choice|choose|instructions|instruction|direction|call|consent|authorization|authorisation|verdict|thoughts|preference|preferences|approve|say-so/,
    )}`,
    `^(?:${whole(/I'm|I am|I'll be|I will be|we're|we are|still|now|just/)}\\s+)?${whole(/waiting for|awaiting|waiting on|standing by for|I'll wait for|I will wait for/)}\\s+${whole(/your|you to/)}\\s+\\p{L}`,
    whole(
      /once you confirm|once you approve|once you decide|once you choose|once you pick|once you reply|once you answer|once you agree|once you sign off|once you've confirmed|once you've approved|once you've decided|once you've chosen|once you've picked|once you've replied|once you've answered|once you've agreed|once you have confirmed|once you have approved|once you have decided|once you give the go-ahead|once you give me the go-ahead|once you say so|once you say go|once you say yes/,
    ),
    whole(
      /after your approval|after your go-ahead|after your confirmation|after your ok|after your decision|after your answer|upon your approval|upon your confirmation|with your approval|with your go-ahead|with your permission|with your ok|pending your approval|pending your review|pending your confirmation|pending your decision/,
    ),
    whole(/let me know once|let me know as soon as|let me know when you've|let me know when you have|let me know when it|let me know when the/),
    `${whole(/I've paused|I have paused|I'm pausing|I am pausing|I'll pause|paused here|stopping here|I'll wait|I will wait|I'm waiting|I am waiting|I'll hold off|I'm holding off|I'll stand by|standing by|on hold|blocked/)}${within(60)}${whole(/until you|till you|for you to/)}`,
    `${whole(/when you|whenever you|as soon as you|after you/)}(?:'ve| have)?\\s+${whole(/approve|approved|confirm|confirmed|sign off|signed off|give the go-ahead|give me the go-ahead|given the go-ahead|say so|say go|say yes|agree|agreed/)}`,
    `${whole(/let me know|tell me/)}\\s+${whole(/your decision|your choice|your preference|your preferences|your answer|your pick|your call|your vote|your go-ahead/)}`,
    `${whole(/until you|till you|until you've|until you have/)}\\s+${whole(/give the word|give me the word|give the go-ahead|give me the go-ahead|confirm|approve|decide|reply|answer|say so|say go|tell me|let me know|are ready|'re ready/)}`,
    `${whole(/I need|I'll need|I will need|I'd need/)}${within(60)}${whole(/from you/)}`,
    whole(/I need your|I'll need your|I will need your|I'm blocked|I am blocked|I'm stuck until|I am stuck until/),
    `^(?:${/blocked|waiting on you|waiting for you|input needed|needs your input|decision needed|action needed|action required/.source})\\s*[:：]`,
    `^(?:${/your call|up to you|it's up to you|it's your call|that's your call|your choice|the choice is yours|you decide|you tell me|your pick/.source})[\\s.!]*$`,
  ].join("|"),
  negated: whole(/no|not|never|without|nothing|don't|doesn't|didn't|won't|isn't|aren't|can't/),
  handOver: [
    `^${whole(/once|as soon as|after|when/)}\\s+you(?:'ve| have)?\\s+(?!${whole(/want|like|wish|need|prefer|get a chance|have time|are ready|'re ready/)})${within(100)},?\\s+${whole(/I'll|I will|I can|we'll|we can/)}`,
    `${whole(/tell me|let me know/)}\\s+${whole(/when|once|as soon as/)}\\s+you${within(100)}${whole(/and I'll|and I will|and I can|then I'll|then I can/)}`,
  ].join("|"),
  depends: [
    /^(?:if (?:yes|so|not|no)\b|if you(?:'d| would)? (?:agree|approve|confirm|prefer|want me to|like me to|say yes)\b|if (?:that|this) (?:works|sounds good|looks good|looks right|is (?:ok|okay|fine|correct|right))\b|if that'?s (?:ok|okay|fine|correct|right)\b)/u.source,
    /^(?:once you(?:'ve| have)? (?:confirm|approve|decide|choose|pick|reply|answer|agree|say|tell me|let me know|confirmed|approved|decided|chosen|picked|replied|answered|agreed)\b|once (?:confirmed|approved)\b|after (?:you confirm|your (?:confirmation|approval|answer|reply))\b|upon (?:confirmation|approval)\b|when you (?:confirm|approve|decide|reply)\b|otherwise\b|either way\b)/u.source,
  ].join("|"),
  choose: /\b(?:would you like(?: me)? to|do you want(?: me)? to|shall I|should I|which (?:one|option|approach|would you|do you)|(?:please )?(?:choose|pick|select)(?: one)?|would you prefer)\b/u.source,
  condition: /^(?:if|unless|should|in case|whenever)\b/u.source,
  offer: whole(
    /if you want|if you'd want|if you like|if you'd like|if you would like|if you prefer|if you'd prefer|if you wish|if you need|if you have|if you run into|if you encounter|if you see|if you hit|if you get|if you notice|if you spot|if you find|if you are interested|if you still|if needed|if necessary|if desired|if anything|if something|if any|if there is|if there are|if it fails|if it still fails|if it breaks|if it still breaks|if it doesn't|if it does not|if that doesn't|if errors|if error|if problems|if problem|if issues|if issue|if so|in case|should anything|should something|should it|should you|when you need|whenever you need|when you want|whenever you want|when you like|whenever you like|any time|anytime|at your convenience|when you have time|whenever you have time|when you get a chance|feel free|what you think|how it goes|how it went|how that goes|how this goes|how it feels|how it works for you|how that works for you/,
  ),
  turnHeading:
    /ready for next step|ready for next steps|ready for testing|ready for review|ready for your review|ready for you|ready to test|please test|testing required|testing needed|test required|test needed|your turn|your action|your move|your part|over to you|action required|actions required|action needed|actions needed|what you need to do|required steps|required actions|manual steps|manual step|next steps for you|next step for you|to proceed|to continue|before I continue|before I proceed|before I go on/.source,
  nextHeading: /next|next step|next steps/.source,
  tests: [
    `^${whole(/restart|reload|refresh|relaunch|rerun|re-run|run|launch|open|start|rebuild|try|test/)}${within(100)}${whole(/and|then/)},?\\s+${whole(/let me know|tell me/)}\\s+${whole(/if|whether|how/)}${within(30)}${whole(/works|work|worked|goes|went|behaves|fixed|solved|resolved/)}`,
    `${whole(/ready to test|ready for testing|ready for you to test|ready for you to try|ready to try/)}[\\s.!]*$`,
    `^(?:${whole(/please|now|so|just|go ahead and|ok|okay|then|next|finally/)},?\\s+)*(?:${whole(/launch|open|start|run|reload|refresh|restart|rebuild|relaunch|fire up|spin up|deploy/)}${within(60)}${whole(/and|then/)}\\s+)?(?:please\\s+)?(?:${whole(/test|try|retest|re-test|playtest/)}(?:\\s+${whole(/the|it|this|that|them|these|those|in|on|with|out|again|now|manually|yourself|locally|everything|things|your|both|all|whether|if|how|please|first|once/)}|\\s*[.!]*$)|${whole(/give it a try|give it a spin|give it a go|take it for a spin/)})`,
    `${whole(/please|can you|could you|would you|you'll need to|you will need to|you need to|I need you to/)}\\s+(?:${whole(/now|also|then|first|quickly|manually/)}\\s+)?${whole(/test|try|retest|re-test|verify|confirm|check/)}${within(80)}${whole(/works|work|working|fixed|behaves|looks right|in the browser|in your browser|in game|in-game|on your device|on device|manually|yourself|locally|now|again/)}`,
  ].join("|"),
  untested: [
    `${whole(/I|we/)}\\s+${whole(/couldn't|could not|can't|cannot|can not|wasn't able to|was not able to|weren't able to|were not able to|am unable to|was unable to|were unable to|had no way to|have no way to|don't have a way to|do not have a way to|have no means to/)}\\s+(?:${whole(/yet|actually|fully|directly|easily|really|currently|myself|here|also|properly/)}\\s+)?${whole(/run|test|verify|try|execute|launch|start|check|exercise|play|open|build|compile|reproduce it|see/)}`,
    `${whole(/I|we/)}\\s+${whole(/didn't|did not|haven't|have not|hadn't|had not/)}\\s+(?:${whole(/yet|actually|been able to|had a chance to|got to|fully|manually|personally|myself/)}\\s+)?${whole(/run|test|tested|verify|verified|execute|executed|run it|ran|check it|checked it|exercise|exercised|been able to test|been able to run/)}(?!\\s+${whole(/into|across|out of|over/)})`,
    whole(/untested|not tested|not been tested|not yet tested|hasn't been tested|has not been tested|haven't been tested|have not been tested|wasn't tested|was not tested|without testing|without running|without being able to test|not verified|unverified|not been verified|couldn't be tested|could not be tested|couldn't be verified|could not be verified|can't be tested|cannot be tested/),
  ].join("|"),
};

const chinese: Forms = {
  language: "zh",
  scripts: HAN,
  questionEnd: /吗/.source,
  addresses: /[你您我]/u.source,
  secondPerson: /你|您/.source,
  whOpener: /^(?:为什么|为何|怎么|如何|什么|哪)/u.source,
  answered: /^(?:是的|是|对|不是|不|没有|会的|好的|当然|因为|我会|我将|让我|我们会|接下来我)/u.source,
  request: [
    /请(?:您|你)?(?:提供|添加|上传|分享|发送|粘贴|附上|选择|指定|批准|确认是否|确认一下是否|确认以上|确认上述)/u.source,
    /请(?:您|你)?(?:告诉我|让我知道|说明)[^。！]{0,40}?(?:哪|是否|要不要|还是)/u.source,
    /(?:需要|麻烦)(?:您|你)(?:提供|确认|添加|上传|分享|选择|告诉我)/u.source,
  ].join("|"),
  leadIn: /现在|然后|接下来|首先|请|麻烦/.source,
  imperative: `^(?:请|麻烦)?(?:您|你)?(?:先|再|帮我)?(?:${/运行|执行|测试|尝试|检查|验证|重启|重新启动|重新加载|刷新|启动|打开|关闭|登录|选择|确认|批准|审核|审阅|查看|分享|发送|粘贴|提供|上传|告诉我/.source})`,
  polite: /请|麻烦您|麻烦你|需要您|需要你|得您|得你|您需要|你需要|您得|你得|您必须|你必须|能否|能不能|劳驾/.source,
  giveBack: [
    `(?:${/粘贴|贴|分享|发送|发|提供|上传|附上|反馈/.source})(?:给我|到这里|过来|一下)?${within(30)}(?:${/输出|日志|错误|报错|结果|截图|内容|信息/.source})`,
    `(?:把|将)${within(20)}(?:${/输出|日志|错误|报错|结果|截图|内容|信息/.source})${within(10)}(?:${/粘贴|贴|发|分享|提供|告诉|反馈/.source})`,
    /发给我|贴给我|发送给我|粘贴给我|分享给我/.source,
    `(?:告诉我|让我知道)${within(20)}(?:${/哪|是否|什么|结果|输出|如何|怎么样|效果|选择|决定|意见/.source})`,
    `(?:${/确认|批准|选择|决定/.source})${within(20)}(?:是否|哪|用哪)`,
  ].join("|"),
  yourself: /自己|您那边|你那边|在您的|在你的/.source,
  lookAtChange: `^(?:${/刷新|重新加载|重启|重新启动/.source})${within(20)}(?:${/后确认|并确认|然后确认|后检查|并检查|然后检查|后验证|并验证|后测试|并测试|然后测试|再试|后再试|重试/.source})`,
  continues: /以便我|好让我|这样我就可以|这样我可以|这样我能|这样我才能|然后我|之后我|我再继续|我才能继续|我就可以继续|我就能继续|我再部署|我才能部署|我再修复|我再处理|我会继续|我将继续|再继续|才能继续/.source,
  testRequest: [`^(?:请|麻烦)?(?:您|你)?(?:(?:${/启动|运行|刷新|打开|重启/.source})${within(20)}(?:并|然后|后))?测试一下吧?$`, /^请测试|^请您测试|^请你测试|^请测一下|^请您测一下/.source].join("|"),
  testNext: [`^(?:请|麻烦)?(?:您|你)?(?:先)?(?:${/重启|重新启动|刷新|重新加载|重新登录|登录|登入|重新运行|运行|执行|启动|打开|重新安装|清除缓存|清空缓存/.source})${within(40)}(?:${/再试|重试|再测试|再检查|再确认|并检查|并确认|并测试|然后检查|然后确认|然后测试|后检查|后确认|后测试|看看是否|看是否|确认是否|检查是否/.source})`, /^(?:请|麻烦)?(?:您|你)?(?:再试一次|再试一下|重试一下|重新试一下)/.source].join("|"),
  personStep: /^(?:重启|刷新|打开|关闭|登录|选择|确认|批准|分享|发送|粘贴|提供|上传)/u.source,
  awaits: [
    /等待您的|等待你的|等候您的|等您的|等你的|待您确认|待你确认|待您批准|待你批准|待您审核|待您决定|您确认后|你确认后|您批准后|你批准后|您同意后|你同意后/.source,
    /^(?:我)?(?:在)?等(?:待|候)?(?:您|你)(?:的|把|将|提供|发|上传|确认|回复)/.source,
  ].join("|"),
  negated: /不需要|无需|不用/.source,
  handOver: [
    `(?:等|待|一旦|当)?(?:您|你)${within(40)}(?:后|之后|以后|了)[,，]?\\s*我(?:再|就|会|来|将|可以|便|马上)`,
    `(?:告诉我|通知我|让我知道)${within(30)}[,，]?\\s*我(?:再|就|会|来|将|可以|便|马上)`,
  ].join("|"),
  depends: /^(?:如果(?:是|可以|同意|需要|没问题|确认|您同意|你同意|您确认|你确认|要的话|不需要|不)|确认后|您确认后|你确认后|同意后|否则|若同意)/u.source,
  choose: /(?:您希望|你希望|您想|你想|需要我|请选择|选择哪|您倾向|你倾向)/u.source,
  condition: /^(?:如果|若|假如|如有|如需|如还|要是|万一)/u.source,
  offer: /如有|如需|有问题|有任何问题|有其他问题|有疑问|有任何疑问|有需要|有任何需要|需要的话|随时|如果你需要|如果您需要|如果你想|如果您想|如果你愿意|如果您愿意|如果你希望|如果您希望/.source,
  turnHeading: /请测试|请您测试|请你测试|测试步骤|需要您操作|需要你操作|需要您做的|需要你做的|待您操作|待您确认|待你确认/.source,
  nextHeading: /下一步|下一步操作|后续步骤|接下来/.source,
  tests: [
    /^(?:现在)?(?:请|麻烦)(?:您|你)?(?:先|再)?(?:[^。！？]{0,30}(?:后|并|然后))?(?:测试|试一下|试试|试用|验证|确认[^。！？]{0,20}(?:是否|能否|可以|正常))/.source,
    /(?:请|麻烦)(?:您|你)?[^。！？]{0,30}(?:测试一下|试一下|试试看|验证一下)/.source,
  ].join("|"),
  untested: /(?:无法|没法|不能|未能|没能|没有办法)(?:在[^。！？]{0,10})?(?:运行|测试|验证|执行|启动|检查)|(?:没有|尚未|还没|还没有|未)(?:实际)?(?:运行|测试|验证|执行)(?:过)?|未经测试|未测试|未验证/.source,
};

const japanese: Forms = {
  language: "ja",
  scripts: KANA | HAN,
  questionEnd: /ますか|ましょうか|でしょうか|ませんか|ですか|いかがですか|よろしいですか/.source,
  addresses: /(?:ますか|ましょうか|でしょうか|ませんか)/u.source,
  secondPerson: /あなた/.source,
  whOpener: /^(?:なぜ|どうして|何)/u.source,
  answered: /^(?:はい|いいえ|もちろん|なぜなら|続けます|進めます)/u.source,
  request: [
    /(?:共有|提供|追加|送信|送付|アップロード|貼り付け|添付|指定|選択|承認|許可)(?:して|を)?(?:ください|下さい|いただけますか|お願いします)/u.source,
    /(?:選んで|決めて)(?:ください|下さい)/u.source,
    /か(?:どうか)?(?:を)?(?:教えて|お知らせ|ご連絡|ご指示)(?:ください|下さい|いただけ)/u.source,
  ].join("|"),
  polite: /ください|下さい|お願いします|お願いいたします|いただけますか|いただけますでしょうか|もらえますか|必要があります/.source,
  giveBack: [
    `(?:${/共有|送信|送っ|貼り付け|貼っ|提供|教え|お知らせ|知らせ|添付|アップロード|返信|回答|選ん|選択|承認|指示|決め/.source})(?:て|し|して)?(?:${/ください|下さい|いただけ|もらえ|お願い/.source})`,
    /ご承認ください|ご指示ください|ご判断ください|ご回答ください|ご返信ください|ご承認をお願い|ご指示をお願い|ご判断をお願い|ご回答をお願い|ご返信をお願い/.source,
  ].join("|"),
  yourself: /ご自身/.source,
  continues: [
    `(?:${/そうすれば|そうしたら|その後|それから|完了したら|終わったら|いただければ|次第/.source})${within(20)}(?:${/続行|続け|進め|再開|対応|修正|デプロイ/.source})`,
    /続行できます|続行します|再開します|作業を続けます|先に進めます|次に進めます|続行することができます|先に進められます/.source,
  ].join("|"),
  testRequest: /テストしてください$|テストして下さい$|テストしてみてください$|テストしてみて下さい$/.source,
  testNext: [`(?:${/再起動|リロード|再読み込み|更新|ログイン|再ログイン|再実行|実行|起動|開い|再インストール|キャッシュを(?:クリア|削除)/.source})${within(40)}(?:${/てから|した後|したあと|後に|して/.source})${within(40)}(?:${/確認|試し|テスト|再試行|動作/.source})${within(20)}(?:${/ください|下さい|お願いします|お願いいたします|いただけますか|ていただけ/.source})`, /(?:もう一度|再度)(?:お試し|試して|実行して)(?:ください|下さい|いただけますか)/.source].join("|"),
  awaits: [
    `(?:${/承認|確認|返答|回答|判断|決定|指示|許可|承諾|返信|フィードバック|ファイル|連絡|ご返信|ご連絡|ご指示|ご確認|ご承認/.source})を?お?待(?:ち|っ)`,
    /承認待ち|指示待ち|判断待ち|ご返信をお待ち|ご連絡をお待ち/.source,
  ].join("|"),
  negated: /必要ありません/.source,
  handOver: `(?:${/いただければ|いただいたら|頂ければ|頂いたら|くだされば|くださったら|もらえれば|もらえたら|いただき次第|頂き次第|され次第|でき次第/.source})[、,]?${within(40)}(?:${/します|いたします|しますね|できます|ます/.source})`,
  depends: /^(?:よろしければ|問題なければ|ご承認いただければ|承認いただければ|ご確認いただければ|確認(?:が取れ|でき)次第|OKでしたら|OKであれば|はいの場合|いいえの場合|了承いただければ|そうでなければ|もし(?:よろしければ|問題なければ|そうなら))/u.source,
  choose: /(?:どちら|どれ|いかがしますか|しますか|ご希望|選んで|どの)/u.source,
  condition: /^(?:もし|万が一)|(?:あれば|なければ|(?<!いただい|頂い|くださっ|もらっ)たら|なら|場合は|場合には|際は)/u.source,
  offer: /お気軽に|いつでも|よろしければ|必要であれば|ご希望であれば|必要でしたら|ご希望でしたら/.source,
  turnHeading: /テスト手順|動作確認|動作確認のお願い|ご確認のお願い|ご確認いただきたいこと|お願いしたいこと|お願い事項|必要な操作/.source,
  nextHeading: /次のステップ|次の手順/.source,
  tests: [
    /(?:テスト|試し|試用|動作確認|確認)(?:して(?:みて)?|を)?(?:ください|下さい|お願いします|お願いいたします|いただけますか|いただけますでしょうか)/.source,
    /(?:動く|動作する|正常に動作する|直った|解決した)か(?:どうか)?(?:を)?(?:確認|教えて|お知らせ)/.source,
  ].join("|"),
  untested: /(?:テスト|実行|検証|動作確認|確認|起動)(?:は|が|を)?(?:でき|行え|出来)(?:ませんでした|ていません|なかった)|(?:テスト|実行|検証|動作確認)(?:は|を)?(?:して|行って|実施して)(?:いません|おりません|いない)|未テスト|未検証|未確認/.source,
};

const korean: Forms = {
  language: "ko",
  scripts: HANGUL,
  questionEnd: /까요|습니까|니까|나요|실래요|시겠어요|을까요|할래요/.source,
  addresses: /(?:까요|습니까|니까|나요|세요|실래요|시겠어요|시겠습니까|될까요|할래요|어때요|좋을까요)\s*[?？]?$|(?<![\p{L}])(?:제가|저는|저희가|당신|귀하)(?![\p{L}])/u.source,
  secondPerson: /당신|귀하|님/.source,
  whOpener: /^(?:왜|어떻게|무엇|뭐|어디|언제|누가|어느|어떤)/u.source,
  answered: /^(?:네|예|아니요|아니오|물론|왜냐하면|계속하겠습니다|진행하겠습니다)/u.source,
  request: [
    /(?:어느|어떤|어떻게|어떤 것|어느 것)[^.!?。]{0,40}(?:알려|선택해|결정해|말씀해)\s*(?:주세요|주십시오|주시겠어요|주시면)/u.source,
    /(?:승인|허락|결정|선택|지정)(?:을|를)?\s*(?:해\s*)?(?:주세요|주십시오|부탁드립니다)/u.source,
  ].join("|"),
  leadIn: /이제|먼저|그다음|그 다음|다음으로|그리고|그럼/.source,
  polite: /주세요|주십시오|주시겠어요|주시겠습니까|부탁드립니다|부탁합니다|바랍니다|해야 합니다|하셔야 합니다|필요합니다/.source,
  giveBack: [
    `(?:${/로그|출력|오류|에러|결과|스크린샷|내용|메시지|토큰|파일/.source})${within(30)}(?:${/보내|공유해|붙여넣어|붙여 넣어|알려|첨부해|전달해|업로드해|올려/.source})\\s*(?:${/주세요|주십시오|주시겠어요|주시면|줘/.source})`,
    /(?:알려|말씀해)\s*(?:주세요|주십시오|주시겠어요)/.source,
  ].join("|"),
  yourself: /직접|본인|로컬에서/.source,
  continues: /(?:그러면|그럼|그 후|이후|다음에)\s*(?:제가|저는)?\s*(?:계속|진행|수정|확인|배포)|계속 진행하겠습니다|진행할 수 있습니다|계속할 수 있습니다/.source,
  testRequest: /(?:테스트|시험)(?:해|하여|를 해)\s*(?:보세요|주세요|주십시오|보시겠어요|주시겠어요|봐 주세요)[.!]*$/.source,
  testNext: [`(?:${/재시작|다시 시작|재실행|다시 실행|실행|새로고침|새로 고침|다시 로드|로그인|다시 로그인|재설치|캐시를 지우|열어|열고/.source})${within(40)}(?:${/후|다음|고|서/.source})${within(30)}(?:${/확인|테스트|시도|다시 해|다시 시도/.source})${within(10)}(?:${/주세요|보세요|주십시오|주시겠어요/.source})`, /다시\s*(?:시도|실행|테스트)해\s*(?:주세요|보세요|주십시오)/.source].join("|"),
  personStep: /^(?:재시작|새로고침|로그인|선택|확인|승인|공유|보내|붙여넣|제공|업로드)/u.source,
  awaits: `(?:${/승인|확인|답변|결정|피드백|지시|파일|응답|회신|선택|의견|허락/.source})(?:을|를)?\\s*(?:${/기다리고 있습니다|기다리겠습니다|기다리고 있어요|기다릴게요|기다리는 중|대기 중|대기하겠습니다/.source})`,
  negated: /필요 없|필요없|않아도/.source,
  handOver: `(?:${/주시면|주신다면|주시는 대로|하시면|하시는 대로|되시면|주시고 나면/.source})${within(60)}(?:${/겠습니다|겠어요|할게요|드릴게요|볼게요/.source})`,
  depends: /^(?:괜찮으시면|승인하시면|확인해 주시면|그렇다면|아니라면|그렇지 않으면|네라면|좋으시다면)/u.source,
  choose: /(?:어느|어떤|원하시|선택해|고르|하시겠습니까|할까요)/u.source,
  condition: /^(?:만약|혹시|만일)|(?:있으면|있으시면|발생하면|생기면|필요하면|필요하시면|원하시면|원하면|경우에는|경우)/u.source,
  offer: /필요하시면|원하시면|원하신다면|궁금한 점|언제든지|언제든|편하게|추가로 필요한/.source,
  turnHeading: /테스트 방법|확인 방법|테스트 요청|확인 요청|필요한 작업|해야 할 일/.source,
  nextHeading: /다음 단계|다음 작업|향후 단계/.source,
  tests: [
    /(?:테스트|시험|시도|사용)(?:해|하여|를 해)\s*(?:보시고|보세요|주세요|주십시오|보시겠어요|주시겠어요|봐 주세요|보시길 바랍니다)/.source,
    /(?:작동|동작|잘 되는지|되는지|정상|해결되었는지|해결됐는지)[^.!?。]{0,20}확인(?:해|하여)\s*(?:주세요|보세요|주십시오|주시겠어요|보시고)/.source,
  ].join("|"),
  untested: /(?:테스트|실행|검증|확인)(?:를|을|는)?\s*(?:하지 못했|할 수 없었|해 보지 못했|해보지 못했|하지 않았|못 했|못했)|테스트되지 않았|검증되지 않았/.source,
};

const russian: Forms = {
  language: "ru",
  scripts: CYRILLIC,
  addresses: /(?<!\p{L})(?:вы|вам|вас|ты|тебе|я|мне|мы)(?!\p{L})/u.source,
  secondPerson: whole(/вы|вам|вас|ваш|ваша|ваше|ваши|вашего|ты|тебе|тебя|твой|твоя|твоё|твои/),
  whOpener: `^${whole(/почему|зачем|как|что|где|когда|кто|какой/)}`,
  agentAsks: whole(/должен ли я|мне стоит/),
  answered: `^${whole(/да|нет|конечно|потому что|я продолжу|я сделаю|я начну|я думаю|давайте/)}`,
  request: [
    /пожалуйста,?\s+(?:добавьте|добавь|предоставьте|предоставь|поделитесь|поделись|пришлите|пришли|отправьте|отправь|вставьте|вставь|загрузите|загрузи|подтвердите|подтверди|укажите|укажи|выберите|выбери|уточните|уточни|опишите|опиши)(?!\p{L})/u.source,
    /(?<!\p{L})(?:добавьте|предоставьте|поделитесь|пришлите|отправьте|подтвердите|укажите|выберите|уточните|опишите)(?!\p{L})[^.!]{0,80}?,?\s+пожалуйста/u.source,
    /(?<!\p{L})(?:сообщите|скажите|дайте знать|напишите|подскажите)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:какой|какая|какое|какие|какую|каким|который|которую|которые|что из)(?!\p{L})/u.source,
  ].join("|"),
  leadIn: whole(/теперь|затем|сначала|потом|пожалуйста|после этого|далее/),
  imperative: `^${whole(
    /запустите|запусти|выполните|выполни|протестируйте|протестируй|попробуйте|попробуй|проверьте|проверь|перезапустите|перезапусти|перезагрузите|перезагрузи|обновите|обнови|откройте|открой|закройте|закрой|войдите|войди|выберите|выбери|подтвердите|подтверди|одобрите|одобри|просмотрите|просмотри|поделитесь|поделись|отправьте|отправь|пришлите|пришли|вставьте|вставь|предоставьте|предоставь|сообщите|сообщи|скажите|скажи|напишите|напиши|скиньте|скинь|приложите|приложи|загрузите|загрузи|укажите|укажи|добавьте|добавь|дайте знать|опишите|опиши|залогиньтесь|авторизуйтесь/,
  )}`,
  polite: whole(/пожалуйста|можете|не можете|могли бы|не могли бы|сможете|вам нужно|вам надо|вам необходимо|вам следует|вам придётся|тебе нужно|тебе надо|нужно, чтобы вы/),
  giveBack: [
    `${whole(
      /поделитесь|поделись|поделиться|отправьте|отправь|отправить|пришлите|пришли|прислать|вставьте|вставь|вставить|предоставьте|предоставь|предоставить|скиньте|скинь|скинуть|приложите|приложи|приложить|загрузите|загрузи|загрузить/,
    )}${within(80)}${WORD_START}(?:${/вывод|лог|ошибк|результат|скриншот|содержим|трассировк|сюда|мне|в чат|файл/.source})`,
    `${whole(/сообщите|сообщи|скажите|скажи|напишите|напиши|дайте знать|дай знать/)}${within(40)}${whole(/ли|какой|какая|какие|какое|какую|что|как|когда|результат/)}`,
    whole(/подтвердите|подтверди|одобрите|одобри|выберите|выбери|укажите|укажи|уточните|уточни|решите|реши|опишите|опиши/),
  ].join("|"),
  yourself: whole(/сами|сам|самостоятельно|на своей машине|у себя/),
  lookAtChange: `^${whole(/перезапустите|перезапусти|перезагрузите|перезагрузи|обновите|обнови/)}${within(60)}${whole(/и проверьте|и проверь|чтобы проверить|и убедитесь|и убедись|и попробуйте|и попробуй/)}`,
  continues: whole(
    /чтобы я мог|чтобы я могла|чтобы я смог|чтобы я смогла|и я продолжу|и я смогу|и я исправлю|и я займусь|после этого я|тогда я смогу|тогда я продолжу|затем я|прежде чем я|перед тем как я|чтобы продолжить|для продолжения|и я укажу|и я покажу|и я повторю/,
  ),
  testRequest: `^${whole(/протестируйте|протестируй|попробуйте|попробуй|проверьте|проверь/)}(?:\\s+${whole(/это|его|её|их|изменения|приложение|страницу|снова|ещё раз|еще раз|сейчас/)})*(?:,?\\s+пожалуйста)?$`,
  testNext: [`^${whole(/запустите|запусти|выполните|выполни|откройте|открой|перезапустите|перезапусти|перезагрузите|перезагрузи|обновите|обнови|войдите|войди|залогиньтесь|авторизуйтесь|выйдите|выйди|переустановите|очистите|очисти|запустите снова|перезайдите/)}${within(80)}${whole(/и|затем|потом|после чего|после этого/)},?\\s+${whole(/проверьте|проверь|попробуйте|попробуй|протестируйте|протестируй|убедитесь|убедись|повторите|повтори/)}`, `^${whole(/попробуйте снова|попробуйте ещё раз|попробуйте еще раз|попробуй снова|попробуй ещё раз|повторите попытку/)}`].join("|"),
  personStep: `^${whole(/перезапустите|перезагрузите|откройте|закройте|войдите|выберите|подтвердите|одобрите|поделитесь|пришлите|отправьте|вставьте|предоставьте/)}`,
  awaits: [
    `${whole(/жду|ожидаю|в ожидании|жду от вас/)}\\s+${whole(/вашего|твоего|вашей|твоей|ваших|твоих|ваш|твой/)}\\s+${WORD_START}(?:${/подтвержден|одобрен|решени|ответ|отзыв|согласи|указани|выбор|разрешени|файл|данн|лог|токен/.source})`,
    `^(?:${whole(/я|буду|теперь|тогда/)}\\s+)?${whole(/жду|ожидаю|буду ждать/)}${WORD_END}`,
    whole(/после вашего подтверждения|после вашего одобрения|после вашего согласия|после твоего подтверждения|как только вы подтвердите|как только ты подтвердишь|как только вы одобрите/),
  ].join("|"),
  negated: whole(/не нужно|без вашего|без твоего|не жду/),
  handOver: `^${whole(/как только|когда|после того как|после того, как|как/)}\\s+(?:${whole(/вы|ты/)}\\s+)?${within(40)}${WORD_START}\\p{L}+(?:ете|ите|ёте|ешь|ишь|те)${WORD_END}${within(80)},\\s*(?:${whole(/я|тогда я|то я|и я/)}\\s+)\\p{L}+`,
  depends: /^(?:если да|если нет|если вы согласны|если ты согласен|если согласны|если подтвердите|если подтвердишь|если это подходит|после (?:вашего |твоего )?подтверждения|как только (?:вы )?подтвердите|иначе|в противном случае)(?!\p{L})/u.source,
  choose: /(?<!\p{L})(?:хотите|хочешь|выберите|выбери|какой вариант|предпочитаете)(?!\p{L})/u.source,
  condition: /^(?:если|в случае)(?!\p{L})/u.source,
  offer: whole(/когда захотите|когда будет удобно|при необходимости|если понадобится|если нужно|если захотите|если хотите|если будут вопросы|не стесняйтесь/),
  turnHeading: /что нужно сделать|что вам нужно сделать|что требуется сделать|требуется ваше действие|требуется ваше участие|для проверки|ваша очередь|как проверить/.source,
  nextHeading: /следующий шаг|следующие шаги/.source,
  tests: [
    `^(?:${whole(/пожалуйста|теперь|затем/)},?\\s+)*(?:${within(60)}${whole(/и|затем|потом/)}\\s+)?${whole(/протестируйте|протестируй|попробуйте|попробуй|потестируйте|проверьте работу|проверь работу/)}`,
    `${whole(/проверьте|проверь|убедитесь|убедись/)}${within(40)}${whole(/работает ли|работает|работают|исправлено|исправлена|в браузере|вручную/)}`,
  ].join("|"),
  untested: [
    `${whole(/не смог|не смогла|не удалось|не могу|не получилось|нет возможности|не было возможности/)}\\s+(?:${whole(/бы|здесь|сам|сама/)}\\s+)?${whole(/запустить|протестировать|проверить|выполнить|прогнать|открыть/)}`,
    whole(/не тестировал|не тестировала|не проверял|не проверяла|не запускал|не запускала|не протестировано|не проверено|не тестировалось|без тестирования|без проверки|не протестирован|не протестированы/),
  ].join("|"),
};

const spanish: Forms = {
  language: "es",
  scripts: LATIN,
  marks: "el|la|los|las|que|del|y|en|por|para|con|es|está|están|ahora|puedes|ya|lo|una|pero|más|esto|este|esta|hay|también|cuando|favor",
  letters: "¿¡ñáéíóú",
  addresses: /(?<!\p{L})(?:usted|tú|te|quieres|prefieres|deseas|puedo|debo)(?!\p{L})/u.source,
  secondPerson: whole(/usted|tú|te|ti|tu|prefieres|quieres/),
  whOpener: `^${whole(/por qué|cómo|qué|dónde|cuándo|quién|cuál/)}`,
  agentAsks: whole(/debo|debería|deberíamos/),
  answered: `^${whole(/sí|claro|por supuesto|porque|voy a|sigo|continúo|procedo/)}`,
  request: [
    /por favor,?\s+(?:añade|añada|agrega|agregue|comparte|comparta|proporciona|proporcione|envía|envíe|pega|pegue|sube|suba|confirma|confirme|indica|indique|elige|elija|selecciona|seleccione|especifica|especifique|aclara|aclare)(?!\p{L})/u.source,
    /(?<!\p{L})(?:añade|agrega|comparte|proporciona|envía|pega|sube|confirma|indica|elige|especifica|añada|agregue|comparta|proporcione|envíe|pegue|suba|confirme|indique|elija|especifique)(?!\p{L})[^.!]{0,80}?,?\s+por favor/u.source,
    /(?<!\p{L})(?:dime|dígame|indícame|indíqueme|avísame|avíseme|hazme saber|hágame saber)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:cuál|cuáles|qué opción|qué enfoque)(?!\p{L})/u.source,
    /(?<!\p{L})necesito que (?:me |nos )?(?:añadas|agregues|compartas|proporciones|envíes|pegues|subas|confirmes|elijas|digas|indiques|pases|mandes|aclares|especifiques)(?!\p{L})/u.source,
  ].join("|"),
  leadIn: whole(/ahora|luego|después|primero|por favor/),
  imperative: `^${whole(
    /ejecuta|ejecute|prueba|pruebe|testea|revisa|revise|comprueba|compruebe|verifica|verifique|reinicia|reinicie|recarga|recargue|actualiza|actualice|refresca|refresque|abre|abra|cierra|cierre|inicia sesión|inicie sesión|selecciona|seleccione|elige|elija|confirma|confirme|aprueba|apruebe|comparte|comparta|envía|envíe|envia|manda|mande|pega|pegue|proporciona|proporcione|pásame|páseme|dime|dígame|indícame|indíqueme|avísame|avíseme|sube|suba|adjunta|adjunte/,
  )}`,
  polite: whole(/por favor|puedes|podrías|podría|necesito que|tienes que|tendrás que|debes|necesitas|hace falta que/),
  giveBack: [
    `${whole(
      /envíame|envíamelo|envíamelos|mándame|pégame|compárteme|envíeme|mándeme|comparte|comparta|compartir|envía|envíe|envia|enviar|manda|mande|mandar|pega|pegue|pegar|proporciona|proporcione|pásame|páseme|pasarme|sube|suba|subir|adjunta|adjunte|adjuntar/,
    )}${within(80)}${whole(/salida|resultado|resultados|log|logs|registro|registros|error|errores|captura|capturas|contenido|aquí|conmigo|me|traza/)}`,
    `${whole(/dime|dígame|indícame|indíqueme|avísame|avíseme|hazme saber|hágame saber|cuéntame|cuénteme/)}${within(40)}${whole(/cuál|cuáles|qué|si|cómo|cuándo|cuando|en cuanto|el resultado/)}`,
    whole(/confirma|confirme|aprueba|apruebe|elige|elija|decide|decida/),
  ].join("|"),
  yourself: whole(/tú mismo|usted mismo|en tu máquina|en tu equipo/),
  lookAtChange: `^${whole(/recarga|recargue|refresca|refresque|actualiza|actualice|reinicia|reinicie/)}${within(60)}${whole(/para comprobar|y comprueba|y compruebe|y verifica|y verifique/)}`,
  continues: whole(
    /para que pueda|para que yo pueda|así podré|así puedo|así podremos|y continuaré|y seguiré|y podré|y luego continuaré|y luego seguiré|y luego podré|y después continuaré|antes de continuar|antes de seguir|antes de que continúe|antes de que siga|para continuar|para seguir|para proceder|luego continuaré|luego seguiré|luego podré/,
  ),
  testRequest: `^(?:${whole(/por favor/)},?\\s+)?${whole(/prueba|pruebe|pruébalo|pruébala|pruébelo|testea|testéalo/)}(?:\\s+${whole(/los cambios|el cambio|la app|la aplicación|la página|ahora|de nuevo|otra vez/)})*(?:,?\\s+por favor)?$`,
  testNext: [`^${whole(/ejecuta|ejecute|abre|abra|inicia|inicie|reinicia|reinicie|recarga|recargue|refresca|refresque|inicia sesión|inicie sesión|vuelve a iniciar sesión|cierra sesión|borra|limpia/)}${within(80)}${whole(/y|luego|después/)},?\\s+${whole(/prueba|pruebe|vuelve a intentarlo|vuelva a intentarlo|inténtalo de nuevo|inténtelo de nuevo|comprueba|compruebe|verifica|verifique|revisa|revise/)}`, `^${whole(/vuelve a intentarlo|vuelva a intentarlo|inténtalo de nuevo|inténtelo de nuevo|prueba de nuevo|pruebe de nuevo|prueba otra vez/)}`].join("|"),
  personStep: `^${whole(/reinicia|reinicie|recarga|abre|abra|cierra|inicia sesión|elige|elija|confirma|confirme|aprueba|comparte|envía|pega|proporciona/)}`,
  awaits: [
    `${whole(/espero|quedo a la espera de|en espera de|pendiente de|a la espera de|necesito|estoy esperando|esperando/)}\\s+${whole(/tu|su|vuestra|tus|sus/)}\\s+${whole(
      /aprobación|confirmación|decisión|respuesta|visto bueno|autorización|opinión|elección|luz verde|permiso|archivos|archivo|datos|token|comentarios/,
    )}`,
    whole(/una vez que confirmes|una vez que apruebes|una vez que me confirmes|una vez que lo apruebes|una vez que decidas|tras tu aprobación|tras su aprobación|después de tu aprobación|con tu aprobación|con tu visto bueno/),
  ].join("|"),
  negated: whole(/sin tu|sin su|no necesito/),
  handOver: `^${whole(/una vez que|cuando|en cuanto|tan pronto como|apenas/)}\\s+(?:${whole(/me|lo|los|la|las|nos|tú|usted/)}\\s+)*${WORD_START}\\p{L}+(?:es|as|éis|áis)${WORD_END}${within(80)},\\s*(?:${whole(/yo|lo|los|la|las|te|le/)}\\s+)*(?:${WORD_START}\\p{L}+(?:aré|eré|iré)${WORD_END}|${whole(/podré|puedo|sigo|continúo|procedo/)})`,
  depends: /^(?:si es así|si sí|si no|si estás de acuerdo|si está de acuerdo|si me confirmas|si confirmas|si lo apruebas|una vez que (?:confirmes|me confirmes|lo apruebes)|cuando confirmes|en caso afirmativo|de lo contrario|si te parece bien|si le parece bien)(?!\p{L})/u.source,
  choose: /(?<!\p{L})(?:quieres que|prefieres|desea que|deseas|elige|elija|qué opción|cuál prefieres)(?!\p{L})/u.source,
  condition: /^(?:si|en caso)(?!\p{L})/u.source,
  offer: whole(/cuando quieras|cuando lo desees|cuando gustes|si necesitas|si quieres|si tienes|si deseas|si te parece|si lo deseas|si hay|si algo|en caso|no dudes/),
  turnHeading: /listo para probar|para probar|acción requerida|tu turno|qué necesitas hacer|cómo probar/.source,
  nextHeading: /próximos pasos|siguientes pasos|siguiente paso|próximo paso/.source,
  tests: [
    `^(?:${whole(/por favor|ahora/)},?\\s+)*(?:${within(60)}${whole(/y|luego/)}\\s+)?${whole(/prueba|pruebe|pruébalo|pruébala|pruébelo|pruébela|testea|testéalo/)}(?!\\s+${whole(/de|que pasa|que pasan|unitaria|unitarias/)})`,
    `${whole(/comprueba|compruebe|verifica|verifique|confirma|confirme/)}${within(40)}${whole(/funciona|funcionan|que funcione|si funciona|en el navegador|manualmente/)}`,
  ].join("|"),
  untested: [
    `${whole(/no pude|no he podido|no puedo|no fue posible|no tengo forma de|no tengo manera de/)}\\s+${whole(/ejecutar|probar|verificar|comprobar|correr|lanzar|testear/)}`,
    whole(/no lo he probado|no la he probado|no lo probé|no he probado|no he ejecutado|sin probar|no probado|no se ha probado|no verificado|sin verificar/),
  ].join("|"),
};

const portuguese: Forms = {
  language: "pt",
  scripts: LATIN,
  marks: "os|que|do|da|dos|das|em|na|para|com|é|está|agora|você|já|um|uma|mas|mais|não|isso|este|esta|foi|também|quando|favor|por",
  letters: "ãõçêâáéíóú",
  addresses: whole(/você|vocês|tu|te|eu|me|nós|quer|prefere|posso|devo|gostaria/),
  secondPerson: whole(/você|vocês|tu|te|seu|sua|teu|tua|prefere|quer|gostaria/),
  whOpener: `^${whole(/por que|porque|como|o que|onde|quando|quem|qual|quais/)}`,
  agentAsks: whole(/devo|deveria|devemos|posso/),
  answered: `^${whole(/sim|não|claro|com certeza|porque|vou|eu vou|prossigo|continuo/)}`,
  request: [
    `${whole(/por favor/)},?\\s+${whole(/adicione|adiciona|compartilhe|compartilha|forneça|fornece|envie|envia|mande|manda|cole|cola|confirme|confirma|indique|indica|escolha|escolhe|selecione|seleciona|especifique|especifica|esclareça|anexe|anexa/)}`,
    `${whole(/me diga|me diz|me informe|me avise|diga-me|informe-me/)}${within(40)}${whole(/qual|quais|qual opção|qual abordagem/)}`,
    `${whole(/preciso que você|preciso que/)}\\s+${whole(/adicione|compartilhe|forneça|envie|mande|cole|confirme|escolha|me diga|me informe/)}`,
  ].join("|"),
  leadIn: whole(/agora|depois|em seguida|primeiro|por favor|então/),
  imperative: `^${whole(
    /execute|executa|rode|roda|teste|testa|experimente|experimenta|tente|tenta|verifique|verifica|confira|confere|reinicie|reinicia|recarregue|recarrega|atualize|atualiza|abra|abre|feche|fecha|faça login|faz login|entre|selecione|seleciona|escolha|escolhe|confirme|confirma|aprove|aprova|revise|revisa|compartilhe|compartilha|envie|envia|mande|manda|cole|cola|forneça|fornece|me diga|me diz|me informe|me avise|informe|anexe|anexa|suba/,
  )}`,
  polite: whole(/por favor|pode|poderia|você pode|você poderia|você precisa|você precisará|você vai precisar|preciso que você|tem que|terá que/),
  giveBack: [
    `${whole(/compartilhe|compartilha|envie|envia|mande|manda|cole|cola|forneça|fornece|anexe|anexa|suba|me passe|me passa/)}${within(80)}${whole(/saída|resultado|resultados|log|logs|erro|erros|captura|print|conteúdo|aqui|comigo|me|stack trace|mensagem/)}`,
    `${whole(/me diga|me diz|me informe|me avise|diga-me|informe-me|me conte|avise-me/)}${within(40)}${whole(/qual|quais|o que|se|como|quando|o resultado/)}`,
    whole(/confirme|confirma|aprove|aprova|escolha|escolhe|decida|decide/),
  ].join("|"),
  yourself: whole(/você mesmo|você mesma|na sua máquina|do seu lado|localmente/),
  lookAtChange: `^${whole(/recarregue|recarrega|atualize|atualiza|reinicie|reinicia/)}${within(60)}${whole(/e verifique|e verifica|para verificar|e confira|e confirme|e teste|e tente/)}`,
  continues: whole(/para que eu possa|assim poderei|assim posso|e eu continuo|e continuarei|e poderei|antes de continuar|antes de prosseguir|para continuar|para prosseguir|depois eu continuo|aí eu continuo/),
  testRequest: `^(?:${whole(/por favor/)},?\\s+)?${whole(/teste|testa|experimente|experimenta/)}(?:\\s+${whole(/as mudanças|a mudança|o app|a aplicação|a página|agora|novamente|de novo/)})*(?:,?\\s+por favor)?$`,
  testNext: [`^${whole(/execute|executa|rode|roda|abra|abre|inicie|inicia|reinicie|reinicia|recarregue|recarrega|atualize a página|faça login|faz login|entre novamente|saia e entre|limpe|limpa/)}${within(80)}${whole(/e|depois|então/)},?\\s+${whole(/teste|testa|tente novamente|tente de novo|tenta de novo|verifique|verifica|confira|confere/)}`, `^${whole(/tente novamente|tente de novo|tenta de novo|teste novamente|teste de novo/)}`].join("|"),
  personStep: `^${whole(/reinicie|recarregue|abra|feche|faça login|escolha|confirme|aprove|compartilhe|envie|cole|forneça/)}`,
  awaits: [
    `${whole(/aguardo|aguardando|estou aguardando|espero|esperando|fico no aguardo de|fico no aguardo da|fico no aguardo do|no aguardo de|no aguardo da|no aguardo do|preciso de|preciso da|preciso do/)}\\s+(?:${whole(/a|o|as|os/)}\\s+)?${whole(/sua|seu|suas|seus|tua|teu/)}\\s+${whole(
      /aprovação|confirmação|decisão|resposta|autorização|opinião|escolha|sinal verde|permissão|retorno|arquivos|arquivo|dados|token|feedback|ok/,
    )}`,
    whole(/assim que você confirmar|assim que você aprovar|após sua aprovação|após a sua aprovação|com sua aprovação|com o seu ok|depois da sua confirmação/),
  ].join("|"),
  negated: whole(/sem sua|sem seu|sem a sua|não preciso|não é necessário/),
  handOver: `^${whole(/assim que|quando|depois que|logo que|após/)}\\s+(?:${whole(/você|vc|tu/)}\\s+)?${within(80)},?\\s*(?:${whole(/eu|então|aí/)}\\s+)?(?:${whole(/vou|poderei|posso|consigo|continuo|sigo/)}|${WORD_START}\\p{L}+(?:arei|erei|irei)${WORD_END})`,
  depends: `^${whole(/se sim|se não|caso contrário|se você concordar|se concordar|se estiver de acordo|se você aprovar|se aprovar|se estiver bom|se estiver ok|assim que confirmar|assim que você confirmar/)}`,
  choose: whole(/você quer que|quer que eu|prefere|você prefere|deseja que|escolha|qual opção|qual você prefere|gostaria que eu/),
  condition: `^${whole(/se|caso|em caso de/)}`,
  offer: whole(/quando quiser|quando precisar|se precisar|se quiser|se você quiser|se você precisar|se tiver|se desejar|se houver|se algo|qualquer coisa|caso precise|caso queira|fique à vontade|não hesite/),
  turnHeading: /pronto para testar|para testar|como testar|ação necessária|sua vez|o que você precisa fazer/.source,
  nextHeading: /próximos passos|próximo passo|passos seguintes/.source,
  tests: [
    `^(?:${whole(/por favor|agora/)},?\\s+)*(?:${within(60)}${whole(/e|depois/)}\\s+)?${whole(/teste|testa|experimente|experimenta|testa isso|teste isso/)}(?!\\s+${whole(/de|unitário|unitários|que passa|passa|passam/)})`,
    `${whole(/verifique|verifica|confira|confere|confirme|confirma/)}${within(40)}${whole(/funciona|funcionam|se funciona|no navegador|manualmente/)}`,
  ].join("|"),
  untested: [
    `${whole(/não consegui|não pude|não posso|não foi possível|não tenho como|não tive como/)}\\s+${whole(/executar|testar|verificar|rodar|conferir|iniciar|abrir/)}`,
    whole(/não testei|não executei|não rodei|não verifiquei|não foi testado|não foi testada|não testado|sem testar|sem executar|não verificado/),
  ].join("|"),
};

const german: Forms = {
  language: "de",
  scripts: LATIN,
  marks: "der|die|das|und|ist|nicht|ich|du|sie|wir|mit|auf|für|den|dem|ein|eine|zu|es|jetzt|bitte|auch|oder|wenn|dann|noch|kann|habe|wurde",
  letters: "äöüß",
  addresses: /(?<!\p{L})(?:Sie|du|ich|wir|soll)(?!\p{L})/u.source,
  secondPerson: whole(/du|dich|dir|dein|deine|sie|ihnen/),
  whOpener: `^${whole(/warum|wieso|weshalb|wie|was|wo|wann|wer|welche/)}`,
  agentAsks: whole(/soll ich|sollen wir/),
  answered: `^${whole(/ja|nein|natürlich|klar|weil|ich werde|ich mache/)}`,
  request: [
    /(?<!\p{L})bitte\s+(?:füge|füg|fügen Sie|teile|teilen Sie|gib|geben Sie|sende|senden Sie|schicke|schick|schicken Sie|lade|laden Sie|bestätige|bestätigen Sie|wähle|wählen Sie|nenne|nennen Sie|kopiere|kopieren Sie)(?!\p{L})/u.source,
    /(?<!\p{L})(?:füge|füg|fügen Sie|teile|teilen Sie|gib|geben Sie|sende|senden Sie|schicke|schick|schicken Sie|lade|laden Sie|bestätige|bestätigen Sie|wähle|wählen Sie|nenne|nennen Sie)\s+(?:mir\s+)?bitte(?!\p{L})/u.source,
    /(?<!\p{L})(?:sag mir|sagen Sie mir|lass mich wissen|lassen Sie mich wissen|teile mir mit|teilen Sie mir mit|gib mir Bescheid|geben Sie mir Bescheid)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:welche[nrsm]?)(?!\p{L})/u.source,
  ].join("|"),
  leadIn: whole(/jetzt|nun|dann|zuerst|bitte|danach/),
  imperative: `^${whole(
    /führe|führen sie|teste|testen sie|probiere|probier|probieren sie|prüfe|prüfen sie|überprüfe|überprüfen sie|starte|starten sie|lade|laden sie|aktualisiere|aktualisieren sie|öffne|öffnen sie|schließe|schließ|schließen sie|melde dich|melden sie sich|wähle|wählen sie|bestätige|bestätigen sie|genehmige|genehmigen sie|teile|teilen sie|sende|senden sie|schicke|schick|schicken sie|füge|füg|fügen sie|gib|geben sie|kopiere|kopieren sie|sag|sage|sagen sie/,
  )}`,
  polite: whole(/bitte|kannst du|können sie|könntest du|könnten sie|du musst|sie müssen|ich brauche/),
  giveBack: [
    `${whole(
      /teile|teilen sie|teilen|sende|senden sie|senden|schicke|schick|schicken sie|schicken|füge|füg|fügen sie|einfügen|gib|geben sie|geben|poste|posten|kopiere|kopieren sie|kopieren/,
    )}${within(80)}${whole(/ausgabe|log|logs|protokoll|fehler|fehlermeldung|fehlermeldungen|ergebnis|ergebnisse|screenshot|screenshots|inhalt|hier|mir|zurück|in den chat|stacktrace/)}`,
    `${whole(/ausgabe|log|logs|protokoll|fehler|fehlermeldung|fehlermeldungen|ergebnis|ergebnisse|screenshot|screenshots|inhalt|hier|mir|stacktrace/)}${within(60)}${whole(/einfügen|schicken|senden|teilen|geben|posten|kopieren|zeigen/)}`,
    `${whole(/sag mir bescheid|sagen sie mir bescheid|sag mir|sage mir|sagen sie mir|teile mir mit|teilen sie mir mit|gib mir bescheid|geben sie mir bescheid|lass mich wissen|lassen sie mich wissen/)}${within(40)}${whole(/ob|welche|welcher|welches|welchen|welchem|was|wie|wann|wenn|sobald/)}`,
    whole(/bestätige|bestätigen sie|genehmige|genehmigen sie|entscheide|entscheiden sie/),
  ].join("|"),
  yourself: whole(/selbst|bei dir|bei ihnen/),
  lookAtChange: `^${whole(/lade|laden sie|starte|starten sie|aktualisiere|aktualisieren sie/)}${within(60)}${whole(/und prüfe|und prüfen sie|und überprüfe|und überprüfen sie|um zu prüfen|um zu überprüfen|und teste|und testen sie/)}`,
  continues: whole(/damit ich|dann kann ich|danach kann ich|danach mache ich|danach fahre ich|bevor ich|und ich mache weiter|und ich fahre fort|und ich kann|um fortzufahren|um weiterzumachen|dann mache ich weiter/),
  testRequest: [
    `^(?:bitte\\s+)?${whole(/teste|testen sie/)}(?:\\s+bitte)?(?:\\s+(?:${whole(/es|das|sie/)}|${whole(/die|den|das/)}(?:\\s+[\\p{L}-]+)?\\s+${whole(
      /änderung|änderungen|app|anwendung|seite|anmeldung|funktion|oberfläche|version|korrektur|formular|schaltfläche|login/,
    )}))?(?:\\s+${whole(/bitte|jetzt|mal/)})*$`,
    /^bitte testen$/.source,
  ].join("|"),
  testNext: [`^${whole(/führe|führen sie|öffne|öffnen sie|starte|starten sie|lade|laden sie|aktualisiere|aktualisieren sie|melde dich|melden sie sich|leere|leeren sie/)}${within(80)}${whole(/und|dann|danach/)},?\\s+${whole(/prüfe|prüfen sie|überprüfe|überprüfen sie|teste|testen sie|versuche es erneut|versuchen sie es erneut|probiere es erneut|probier es nochmal|versuch es nochmal/)}`, `^${whole(/versuche es erneut|versuchen sie es erneut|versuch es nochmal|versuche es noch einmal|probiere es erneut|probier es nochmal/)}`].join("|"),
  personStep: `^${whole(/starte|öffne|schließe|melde dich|wähle|bestätige|teile|sende|schicke|gib/)}`,
  awaits: [
    `${whole(/warte auf|ich warte auf|wartend auf|brauche|benötige/)}\\s+${whole(/deine|ihre|eure|dein|ihr|deinen|ihren/)}\\s+${whole(
      /bestätigung|freigabe|entscheidung|antwort|zustimmung|rückmeldung|genehmigung|auswahl|eingabe|ok|okay|dateien|datei|daten|token/,
    )}`,
    whole(
      /sobald du bestätigst|sobald du zustimmst|sobald du freigibst|sobald sie bestätigen|sobald sie zustimmen|sobald sie freigeben|nach deiner freigabe|nach ihrer freigabe|nach deiner bestätigung|nach ihrer bestätigung|brauche deine bestätigung|brauche ihre bestätigung|brauche deine freigabe|brauche ihre freigabe|brauche deine entscheidung|brauche ihre entscheidung/,
    ),
  ].join("|"),
  negated: whole(/ohne deine|ohne ihre|nicht nötig/),
  handOver: `^${whole(/sobald|wenn|nachdem/)}\\s+${whole(/du|sie/)}${within(100)},?\\s*${whole(/kann ich|werde ich|mache ich|mach ich|schaue ich|prüfe ich|fahre ich|ich/)}`,
  depends: /^(?:wenn ja|falls ja|wenn nicht|falls nicht|wenn du zustimmst|wenn Sie zustimmen|falls du zustimmst|falls Sie zustimmen|sobald du (?:bestätigst|zustimmst)|sobald Sie (?:bestätigen|zustimmen)|nach deiner Bestätigung|nach Ihrer Bestätigung|andernfalls|ansonsten|wenn das passt|falls das passt)(?!\p{L})/u.source,
  choose: /(?<!\p{L})(?:möchtest du|möchten Sie|soll ich|sollen wir|wähle|wählen Sie|welche Option)(?!\p{L})/u.source,
  condition: /^(?:wenn|falls|sollte|sollten)(?!\p{L})/u.source,
  offer: whole(/bei bedarf|gerne|falls gewünscht|wenn du willst|wenn du möchtest|wenn du magst|wenn sie wollen|wenn sie möchten|falls du willst|falls du möchtest|falls sie wollen|falls sie möchten/),
  turnHeading: /bereit zum testen|zum testen|bitte testen|deine aufgabe|ihre aufgabe|aktion erforderlich|was du tun musst|was sie tun müssen/.source,
  nextHeading: /nächste schritte|nächster schritt/.source,
  tests: [
    `^(?:${whole(/bitte|jetzt|nun/)},?\\s+)*(?:${within(60)}${whole(/und|dann/)}\\s+)?${whole(/teste|testen sie|probiere|probier|probieren sie/)}(?!\\s+${whole(/laufen|läuft|abdeckung/)})`,
    `${whole(/prüfe|prüfen sie|überprüfe|überprüfen sie/)}${within(40)}${whole(/ob es funktioniert|ob es geht|funktioniert|im browser|manuell/)}`,
  ].join("|"),
  untested: [
    `${whole(/konnte|kann/)}${within(40)}${whole(/nicht/)}\\s+${whole(/testen|ausführen|prüfen|überprüfen|starten|verifizieren|laufen lassen/)}`,
    whole(/nicht getestet|ungetestet|nicht ausgeführt|nicht geprüft|nicht verifiziert|ohne test|ohne zu testen/),
  ].join("|"),
};

const french: Forms = {
  language: "fr",
  scripts: LATIN,
  marks: "le|la|les|des|du|et|est|je|tu|vous|nous|une|pour|dans|que|qui|pas|ne|avec|sur|maintenant|ce|cette|il|elle|mais|ou|aussi",
  letters: "èêàçœùëîôâé",
  addresses: /(?<!\p{L})(?:vous|tu|je|nous)(?!\p{L})/u.source,
  secondPerson: whole(/vous|toi|tu|votre|ton|ta/),
  whOpener: `^${whole(/pourquoi|comment|que|qu'|qu’|où|quand|qui|quel/)}`,
  agentAsks: whole(/dois-je|devons-nous/),
  answered: `^${whole(/oui|non|bien sûr|parce que|je vais|je continue|je commence/)}`,
  request: [
    /(?<!\p{L})(?:merci de|veuillez|pourriez-vous|pouvez-vous)\s+(?:m['’])?(?:ajouter|partager|fournir|envoyer|coller|téléverser|confirmer|indiquer|préciser|choisir|sélectionner|dire)(?!\p{L})/u.source,
    /(?<!\p{L})(?:ajoute|ajoutez|partage|partagez|fournis|fournissez|envoie|envoyez|colle|collez|confirme|confirmez|indique|indiquez|précise|précisez|choisis|choisissez)(?!\p{L})[^.!]{0,80}?,?\s*s['’]il (?:vous|te) pla[iî]t/u.source,
    /s['’]il (?:vous|te) pla[iî]t,?\s+(?:ajoute|ajoutez|partage|partagez|fournis|fournissez|envoie|envoyez|colle|collez|confirme|confirmez|indique|indiquez|précise|précisez|choisis|choisissez)(?!\p{L})/u.source,
    /(?<!\p{L})(?:dites-moi|dis-moi|indiquez-moi|indique-moi|faites-moi savoir|fais-moi savoir)(?!\p{L})[^.!]{0,40}?(?<!\p{L})(?:quel|quelle|quels|quelles|lequel|laquelle|lesquels|lesquelles)(?!\p{L})/u.source,
  ].join("|"),
  leadIn: whole(/maintenant|ensuite|puis|d'abord|d’abord|alors/),
  imperative: `^${whole(
    /exécutez|exécute|lancez|lance|relancez|relance|testez|teste|essayez|essaie|essaye|vérifiez|vérifie|redémarrez|redémarre|rechargez|recharge|actualisez|actualise|rafraîchissez|rafraîchis|ouvrez|ouvre|fermez|ferme|connectez-vous|connecte-toi|sélectionnez|sélectionne|choisissez|choisis|confirmez|confirme|approuvez|approuve|validez|relisez|relis|examinez|partagez|partage|envoyez|envoie|collez|colle|fournissez|fournis|transmettez|transmets|dites-moi|dis-moi|indiquez-moi|indique-moi/,
  )}`,
  polite: whole(
    /merci de|veuillez|s'il vous plaît|s'il vous plait|s’il vous plaît|s’il vous plait|s'il te plaît|s'il te plait|s’il te plaît|s’il te plait|pouvez-vous|pourriez-vous|peux-tu|pourrais-tu|il faut que vous|il faut que tu|vous devez|tu dois|vous devrez|j'ai besoin que vous|j’ai besoin que vous|j'ai besoin que tu|j’ai besoin que tu/,
  ),
  giveBack: [
    `${whole(
      /partagez|partage|partager|envoyez|envoie|envoyer|collez|colle|coller|fournissez|fournis|fournir|transmettez|transmets|transmettre|copiez|copie|copier|envoyez-moi|envoie-moi|transmettez-moi|partagez-moi|collez-moi/,
    )}${within(80)}${whole(/sortie|résultat|résultats|journal|journaux|log|logs|erreur|erreurs|capture|captures|contenu|ici|moi|dans le chat|trace/)}`,
    `${whole(/dites-moi|dis-moi|indiquez-moi|indique-moi|faites-moi savoir|fais-moi savoir|tenez-moi au courant/)}${within(40)}${whole(/quel|quelle|quels|quelles|si|ce que|comment|quand|lequel|laquelle|dès que/)}`,
    whole(/confirmez|confirme|approuvez|approuve|validez|décidez|décide|choisissez|choisis/),
  ].join("|"),
  yourself: whole(/vous-même|toi-même|de votre côté|de ton côté/),
  lookAtChange: `^${whole(/rechargez|recharge|actualisez|actualise|rafraîchissez|rafraîchis|redémarrez|redémarre/)}${within(60)}${whole(/pour vérifier|et vérifiez|et vérifie|et testez|et teste|et réessayez|et réessaie/)}`,
  continues: whole(
    /pour que je puisse|afin que je puisse|et je pourrai|et je continuerai|et je poursuivrai|et je corrigerai|ensuite je|puis je|avant que je|pour continuer|pour poursuivre|je pourrai ensuite|je continuerai/,
  ),
  testRequest: `^${whole(/merci de tester|veuillez tester|testez|testez-le|testez-la|testez-les|teste|teste-le|teste-la|teste-les/)}(?:\\s+${whole(/maintenant|s'il vous plaît|s’il vous plaît|s'il te plaît|s’il te plaît/)})?$`,
  testNext: [`^${whole(/exécutez|exécute|lancez|lance|ouvrez|ouvre|redémarrez|redémarre|rechargez|recharge|actualisez|actualise|connectez-vous|connecte-toi|reconnectez-vous|reconnecte-toi|videz|vide/)}${within(80)}${whole(/et|puis|ensuite/)},?\\s+${whole(/réessayez|réessaie|réessaye|vérifiez|vérifie|testez|teste/)}`, `^${whole(/réessayez|réessaie|réessaye|essayez à nouveau|essaie à nouveau|essayez de nouveau/)}`].join("|"),
  personStep: `^${whole(/redémarrez|rechargez|ouvrez|fermez|connectez-vous|choisissez|confirmez|approuvez|partagez|envoyez|collez|fournissez/)}`,
  awaits: [
    `${whole(/j'attends|j’attends|en attente de|dans l'attente de|dans l’attente de|j'ai besoin de|j’ai besoin de|attends/)}\\s+${whole(/votre|ta|ton|vos|tes/)}\\s+${whole(
      /validation|confirmation|approbation|décision|réponse|accord|feu vert|retour|choix|avis|autorisation|instructions|fichiers|fichier|données|jeton|token|ok/,
    )}`,
    whole(/une fois que vous aurez validé|une fois que vous aurez confirmé|une fois que vous aurez approuvé|une fois que tu auras validé|une fois que tu auras confirmé|dès votre validation|dès votre confirmation|dès votre réponse|après votre validation|après votre confirmation|après ta validation/),
  ].join("|"),
  negated: whole(/sans votre|sans ta|sans ton|pas besoin/),
  handOver: `^${whole(/une fois que|dès que|quand|lorsque|après que/)}\\s+${whole(/vous|tu/)}${within(100)},?\\s*${whole(/je/)}\\s+(?:${whole(/vous|te|le|la|les|lui|leur|y|en|l'|l’/)}\\s*)*(?:${whole(/pourrai|pourrais|peux|vais|continue|continuerai|m'occupe|m’occupe/)}|${WORD_START}\\p{L}+(?:rai)${WORD_END})`,
  depends: /^(?:si oui|si non|sinon|si c['’]est le cas|si vous êtes d['’]accord|si tu es d['’]accord|si cela vous convient|si ça te va|une fois que vous aurez confirmé|une fois (?:confirmé|validé)|dès que vous confirmez|dès votre confirmation|après votre confirmation|après ta confirmation)(?!\p{L})/u.source,
  choose: /(?<!\p{L})(?:voulez-vous|veux-tu|souhaitez-vous|préférez-vous|dois-je|choisissez|quelle option)(?!\p{L})/u.source,
  condition: /^(?:si|s['’]il(?! (?:vous|te) pla[iî]t)|au cas|en cas)(?!\p{L})/u.source,
  offer: whole(/quand vous voulez|quand tu veux|quand vous le souhaitez|si vous avez|si tu as|si vous voulez|si tu veux|si vous souhaitez|si tu souhaites|si vous aimeriez|si vous rencontrez|si tu rencontres|si besoin|au besoin|en cas|n'hésitez|n’hésitez/),
  turnHeading: /prêt à tester|pour tester|à vous de jouer|à toi de jouer|action requise|ce que vous devez faire|ce que tu dois faire/.source,
  nextHeading: /prochaines étapes|prochaine étape|étapes suivantes/.source,
  tests: [
    `^(?:${whole(/maintenant|merci de|veuillez/)},?\\s+)*(?:${within(60)}${whole(/et|puis/)}\\s+)?${whole(/testez|teste|testez-le|testez-la|teste-le|essayez|essaie|essaye|tester|essayer/)}(?!\\s+${whole(/unitaire|unitaires|de|passe|passent/)})`,
    `${whole(/vérifiez|vérifie|confirmez|confirme/)}${within(40)}${whole(/fonctionne|marche|que ça marche|si ça marche|dans le navigateur|manuellement/)}`,
  ].join("|"),
  untested: [
    `${whole(/je n'ai pas pu|je n’ai pas pu|je ne peux pas|je n'ai pas réussi à|je n’ai pas réussi à|impossible de|je n'ai aucun moyen de|je n’ai aucun moyen de/)}\\s+${whole(/tester|exécuter|lancer|vérifier|essayer|démarrer|ouvrir/)}`,
    whole(/je n'ai pas testé|je n’ai pas testé|pas testé|non testé|non testée|sans tester|pas été testé|pas été testée|non vérifié|pas vérifié/),
  ].join("|"),
};

const italian: Forms = {
  language: "it",
  scripts: LATIN,
  marks: "il|lo|la|gli|di|del|della|è|che|con|un|una|ora|adesso|sono|ho|hai|questo|questa|anche|ma|se|più|già|nel|puoi",
  letters: "àèìòùé",
  addresses: whole(/tu|ti|te|lei|vuoi|preferisci|posso|devo|io|mi|noi|vorresti|desideri|procedo|procediamo/),
  secondPerson: whole(/tu|ti|te|lei|tuo|tua|tuoi|suo|sua|vuoi|preferisci|vorresti/),
  whOpener: `^${whole(/perché|come|cosa|che cosa|dove|quando|chi|quale|quali/)}`,
  agentAsks: whole(/devo|dovrei|dobbiamo|posso/),
  answered: `^${whole(/sì|no|certo|certamente|perché|lo farò|procedo|continuo/)}`,
  request: [
    `${whole(/per favore|per piacere|ti prego/)},?\\s+${whole(/aggiungi|aggiunga|condividi|condivida|fornisci|fornisca|invia|invii|inviami|manda|mandi|mandami|incolla|incolli|conferma|confermi|indica|indichi|scegli|scelga|seleziona|selezioni|specifica|specifichi|allega|alleghi|descrivi|descriva/)}`,
    `${whole(/dimmi|mi dica|fammi sapere|mi faccia sapere|indicami/)}${within(40)}${whole(/quale|quali|quale opzione|quale approccio/)}`,
    `${whole(/ho bisogno che tu|mi serve che tu/)}\\s+\\p{L}+`,
  ].join("|"),
  leadIn: whole(/ora|adesso|poi|quindi|prima|per favore|dopo/),
  imperative: `^${whole(
    /esegui|esegua|eseguite|prova|provi|provate|testa|testi|testate|verifica|verifichi|verificate|controlla|controlli|controllate|riavvia|riavvii|riavviate|ricarica|ricarichi|aggiorna|aggiorni|apri|apra|chiudi|chiuda|accedi|acceda|effettua il login|seleziona|selezioni|scegli|scelga|conferma|confermi|approva|approvi|rivedi|condividi|condivida|invia|invii|inviami|manda|mandami|incolla|incolli|fornisci|fornisca|dimmi|mi dica|fammi sapere|mi faccia sapere|allega|descrivi|descriva/,
  )}`,
  polite: whole(/per favore|per piacere|puoi|potresti|può|potrebbe|devi|dovrai|dovresti|ho bisogno che tu|è necessario che tu|ti chiedo di|le chiedo di/),
  giveBack: [
    `${whole(/condividi|condivida|invia|invii|inviami|manda|mandi|mandami|incolla|incolli|fornisci|fornisca|allega|alleghi|passami|mi passi/)}${within(80)}${whole(/output|risultato|risultati|log|errore|errori|screenshot|contenuto|qui|con me|mi|stack trace|messaggio|file/)}`,
    `${whole(/dimmi|mi dica|fammi sapere|mi faccia sapere|indicami|fammi avere/)}${within(40)}${whole(/quale|quali|cosa|se|come|quando|il risultato/)}`,
    whole(/conferma|confermi|approva|approvi|scegli|scelga|decidi|decida/),
  ].join("|"),
  yourself: whole(/tu stesso|lei stesso|sulla tua macchina|in locale|da parte tua/),
  lookAtChange: `^${whole(/ricarica|ricarichi|aggiorna|aggiorni|riavvia|riavvii/)}${within(60)}${whole(/e verifica|e verifichi|e controlla|e controlli|per verificare|per controllare|e prova|e riprova/)}`,
  continues: whole(/così posso|così potrò|in modo che io possa|perché io possa|e continuerò|e procederò|e potrò|prima di continuare|prima di procedere|per continuare|per procedere|poi continuerò|poi procederò/),
  testRequest: `^(?:${whole(/per favore/)},?\\s+)?${whole(/prova|provalo|provala|provate|testa|testalo|testala|testate/)}(?:\\s+${whole(/le modifiche|la modifica|l'app|l’app|l'applicazione|la pagina|ora|adesso|di nuovo/)})*(?:,?\\s+per favore)?$`,
  testNext: [`^${whole(/esegui|esegua|avvia|avvii|apri|apra|riavvia|riavvii|riavviate|ricarica|ricarichi|aggiorna la pagina|accedi|acceda|effettua il login|esci e rientra|svuota|pulisci/)}${within(80)}${whole(/e|poi|quindi/)},?\\s+${whole(/prova|riprova|prova di nuovo|verifica|verifichi|controlla|controlli|testa|testi/)}`, `^${whole(/riprova|riprovate|prova di nuovo|prova ancora|riprovi/)}`].join("|"),
  personStep: `^${whole(/riavvia|ricarica|apri|chiudi|accedi|scegli|conferma|approva|condividi|invia|incolla|fornisci/)}`,
  awaits: [
    `${whole(/attendo|aspetto|in attesa di|in attesa del|in attesa della|resto in attesa di|resto in attesa del|ho bisogno del|ho bisogno della|ho bisogno di/)}\\s+(?:${whole(/il|la|i|le/)}\\s+)?${whole(/tua|tuo|tuoi|tue|sua|suo|vostra|vostro/)}\\s+${whole(
      /approvazione|conferma|decisione|risposta|autorizzazione|opinione|scelta|via libera|permesso|riscontro|file|dati|token|feedback|ok|okay/,
    )}`,
    whole(/una volta che confermi|una volta che approvi|dopo la tua approvazione|dopo la tua conferma|con la tua approvazione|con il tuo ok|non appena confermi|appena confermi/),
  ].join("|"),
  negated: whole(/senza la tua|senza il tuo|non serve|non è necessario/),
  handOver: `^${whole(/una volta che|non appena|appena|quando|dopo che/)}\\s+(?:${whole(/mi|me|tu|lei|ci|li|lo|la/)}\\s+)*${within(80)},?\\s*(?:${whole(/io|poi|allora|ti|le|lo|la|li/)}\\s+)*(?:${whole(/posso|potrò|continuo|procedo|riprovo/)}|${WORD_START}\\p{L}+(?:rò)${WORD_END})`,
  depends: `^${whole(/se sì|se si|se no|altrimenti|se sei d'accordo|se sei d’accordo|se è d'accordo|se approvi|se confermi|se ti va bene|se va bene|una volta confermato|appena confermi/)}`,
  choose: whole(/vuoi che|preferisci|desideri|scegli|scelga|quale opzione|quale preferisci|vorresti che/),
  condition: `^${whole(/se|nel caso|in caso|qualora/)}`,
  offer: whole(/quando vuoi|quando preferisci|se vuoi|se desideri|se preferisci|se hai bisogno|se ti serve|se ti servono|se hai|se ci sono|se qualcosa|in caso di|non esitare|fammi sapere se hai bisogno|se necessario|all'occorrenza|all’occorrenza/),
  turnHeading: /pronto per il test|pronto da testare|per testare|come testare|azione richiesta|tocca a te|cosa devi fare/.source,
  nextHeading: /prossimi passi|prossimo passo|passi successivi/.source,
  tests: [
    `^(?:${whole(/per favore|ora|adesso/)},?\\s+)*(?:${within(60)}${whole(/e|poi/)}\\s+)?${whole(/prova|provalo|provala|provate|testa|testalo|testala|testate/)}(?!\\s+${whole(/di|unitari|unitaria|unitarie|passa|passano|che/)}|\\s*[:：])`,
    `${whole(/verifica|verifichi|controlla|controlli|conferma|confermi/)}${within(40)}${whole(/funziona|funzionano|se funziona|che funzioni|nel browser|manualmente/)}`,
  ].join("|"),
  untested: [
    `${whole(/non sono riuscito a|non sono riuscita a|non ho potuto|non posso|non è stato possibile|non riesco a|non ho modo di/)}\\s+${whole(/eseguire|testare|verificare|provare|avviare|lanciare|aprire/)}`,
    whole(/non ho testato|non l'ho testato|non l’ho testato|non l'ho provato|non l’ho provato|non testato|non testata|senza testare|non verificato|non è stato testato/),
  ].join("|"),
};

const turkish: Forms = {
  language: "tr",
  scripts: LATIN,
  marks: "ve|bu|bir|için|ile|da|de|mi|mı|çok|şimdi|lütfen|olarak|olan|daha|ama|gibi|artık|sonra|var|yok|değil|ne|her",
  letters: "şğıçöü",
  questionEnd: `${WORD_START}(?:mı|mi|mu|mü|mısınız|misiniz|musunuz|müsünüz|mısın|misin|musun|müsün)`,
  addresses: `${WORD_START}(?:mı|mi|mu|mü|mısınız|misiniz|musunuz|müsünüz|mısın|misin|musun|müsün)${WORD_END}|${whole(/siz|sen|size|sana|ben|bana|biz/)}|${WORD_START}\\p{L}+(?:ayım|eyim|alım|elim)${WORD_END}`,
  secondPerson: whole(/siz|sen|size|sana|sizin|senin|ister misiniz|ister misin|tercih edersiniz|istersiniz/),
  whOpener: `^${whole(/neden|niye|nasıl|ne|nerede|ne zaman|kim|hangi|hangisi/)}`,
  agentAsks: `${WORD_START}\\p{L}+(?:ayım|eyim|alım|elim)\\s+(?:mı|mi)${WORD_END}`,
  answered: `^${whole(/evet|hayır|tabii|elbette|çünkü|devam ediyorum/)}`,
  request: [
    `${whole(/lütfen/)}${within(60)}${whole(/gönderin|paylaşın|ekleyin|yapıştırın|onaylayın|seçin|belirtin|sağlayın|iletin|yükleyin|açıklayın|bildirin|söyleyin|test edin|deneyin|kontrol edin/)}[.!]*$`,
    `${whole(/hangi|hangisini|hangisi/)}${within(40)}${whole(/belirtin|söyleyin|seçin|bildirin/)}`,
  ].join("|"),
  leadIn: whole(/şimdi|sonra|ardından|önce|lütfen|şimdi de/),
  imperative: `${whole(/test edin|test et|deneyin|dene|kontrol edin|kontrol et|doğrulayın|çalıştırın|çalıştır|yeniden başlatın|yeniden başlat|yenileyin|yenile|açın|aç|giriş yapın|oturum açın|seçin|seç|onaylayın|onayla|gönderin|gönder|paylaşın|paylaş|yapıştırın|yapıştır|sağlayın|iletin|ekleyin|belirtin|söyleyin|bildirin|yükleyin/)}(?:\\s+${whole(/lütfen/)})?[.!]*$`,
  polite: whole(/lütfen|rica ederim|yapabilir misiniz|edebilir misiniz|gönderebilir misiniz|paylaşabilir misiniz|yapmanız gerekiyor|etmeniz gerekiyor|yapmanız gerekir|etmeniz gerekir|gerekiyor/),
  giveBack: [
    `${whole(/çıktıyı|çıktısını|logu|logları|log|hatayı|hata mesajını|sonucu|sonuçları|ekran görüntüsü|ekran görüntüsünü|içeriği|dosyaları|dosyayı|token|tokeni/)}${within(60)}${whole(/gönderin|gönder|paylaşın|paylaş|yapıştırın|yapıştır|iletin|ekleyin|ekle|bildirin|söyleyin/)}`,
    `${whole(/bana/)}${within(40)}${whole(/gönderin|gönder|iletin|söyleyin|bildirin|yazın|haber verin/)}`,
    whole(/onaylayın|onayla|karar verin|seçin|belirtin/),
  ].join("|"),
  yourself: whole(/kendiniz|kendin|kendi makinenizde|sizin tarafınızda|yerelde/),
  lookAtChange: `${whole(/yeniden başlatın|yeniden başlatıp|yenileyin|yenileyip|yeniden yükleyin|yeniden yükleyip/)}${within(60)}${whole(/kontrol edin|kontrol et|test edin|deneyin|doğrulayın/)}`,
  continues: `${whole(/böylece|ardından|sonra|sonrasında|bundan sonra/)}${within(40)}${WORD_START}\\p{L}+(?:acağım|eceğim|abilirim|ebilirim)${WORD_END}|${whole(/devam edebilmem için|devam etmem için|ilerleyebilmem için/)}`,
  testRequest: `^(?:${whole(/lütfen/)}\\s+)?(?:${whole(/bunu|uygulamayı|sayfayı|değişiklikleri|şimdi|tekrar/)}\\s+)*${whole(/test edin|test edebilir misiniz|deneyin|deneyebilir misiniz|test et|dene/)}(?:\\s+${whole(/lütfen/)})?[.!]*$`,
  testNext: [`${whole(/çalıştırıp|çalıştırdıktan sonra|açıp|açtıktan sonra|başlatıp|yeniden başlatın|yeniden başlatıp|yeniden başlattıktan sonra|yenileyin|yenileyip|yeniledikten sonra|giriş yapın|giriş yapıp|giriş yaptıktan sonra|oturum açıp|oturum açtıktan sonra|tekrar giriş yapıp|önbelleği temizleyip|çıkış yapıp/)}${within(80)}${whole(/kontrol edin|kontrol et|test edin|test et|deneyin|dene|tekrar deneyin|yeniden deneyin|doğrulayın/)}`, `${whole(/tekrar deneyin|yeniden deneyin|tekrar dener misiniz|bir daha deneyin/)}[.!]*$`].join("|"),
  personStep: `${whole(/yeniden başlatın|yenileyin|açın|giriş yapın|seçin|onaylayın|paylaşın|gönderin|yapıştırın|sağlayın/)}[.!]*$`,
  awaits: [
    `${whole(/onayınızı|onayını|kararınızı|yanıtınızı|cevabınızı|geri bildiriminizi|dosyalarınızı|dosyanızı|seçiminizi|izninizi|talimatlarınızı|tokeninizi|bilgilerinizi/)}\\s+${whole(/bekliyorum|bekleyeceğim|bekliyor olacağım/)}`,
    `${whole(/onayınız|onayın|kararınız|yanıtınız|cevabınız|izniniz/)}\\s+${whole(/sonrası|sonrasında|ile/)}`,
    `${whole(/sizden/)}${within(40)}${whole(/bekliyorum/)}`,
  ].join("|"),
  negated: whole(/gerek yok|gerekmiyor|onayınız olmadan/),
  handOver: `${WORD_START}\\p{L}+(?:dığınızda|diğinizde|duğunuzda|düğünüzde|tığınızda|tiğinizde|tuğunuzda|tüğünüzde|dıktan sonra|dikten sonra|duktan sonra|dükten sonra|tıktan sonra|tikten sonra|tuktan sonra|tükten sonra|dığınız anda|diğiniz anda|ır ırmaz|er ermez)${WORD_END}${within(80)}${WORD_START}\\p{L}+(?:acağım|eceğim|ayım|eyim|abilirim|ebilirim)${WORD_END}`,
  depends: `^${whole(/evet ise|eğer evetse|onaylarsanız|kabul ederseniz|uygunsa|aksi halde|aksi takdirde|değilse/)}`,
  choose: `${whole(/hangisini|hangisi|hangi seçenek|tercih edersiniz|ister misiniz|seçin|seçiniz/)}|${WORD_START}\\p{L}+(?:ayım|eyim)\\s+(?:mı|mi)${WORD_END}`,
  condition: `^${whole(/eğer|şayet/)}|${WORD_START}\\p{L}+(?:rsanız|rseniz|rsan|rsen|sanız|seniz|ması halinde|mesi halinde)${WORD_END}`,
  offer: whole(/isterseniz|istersen|isterseniz eğer|gerekirse|ihtiyacınız olursa|ihtiyaç olursa|sorunuz olursa|herhangi bir sorun|çekinmeyin|dilerseniz/),
  turnHeading: /test için|test adımları|nasıl test edilir|yapmanız gerekenler|sizin adımınız|gerekli işlem/.source,
  nextHeading: /sonraki adımlar|sonraki adım|bir sonraki adım/.source,
  tests: [
    `${whole(/test edin|test edebilir misiniz|deneyin|deneyebilir misiniz|deneyip|test edip|test et|dene/)}${WORD_END}`,
    `${whole(/çalışıp çalışmadığını|çalışıyor mu|düzelip düzelmediğini|çözülüp çözülmediğini/)}${within(30)}${whole(/kontrol edin|kontrol eder misiniz|bildirin|söyleyin|doğrulayın/)}`,
  ].join("|"),
  untested: [
    `${WORD_START}\\p{L}*(?:test edemedim|çalıştıramadım|doğrulayamadım|deneyemedim|başlatamadım|kontrol edemedim|test etmedim|çalıştırmadım|denemedim|doğrulamadım)${WORD_END}`,
    whole(/test edilmedi|test edilmemiştir|test edilmemiş|doğrulanmadı|test etme imkanım olmadı|test edemiyorum|çalıştıramıyorum/),
  ].join("|"),
};

const czech: Forms = {
  language: "cs",
  scripts: LATIN,
  marks: "je|se|na|že|pro|jsem|jste|nyní|teď|prosím|ale|jak|tak|už|také|není|být|bude|jako|ve|ze",
  letters: "řěůčžšňďťáéíóúý",
  addresses: whole(/vy|vám|vás|ty|tobě|tě|já|mi|mně|my|chcete|chceš|mám|máme|můžete|můžeš|preferujete|byste|bys|mohu|můžu/),
  secondPerson: whole(/vy|vám|vás|váš|vaše|ty|tobě|tě|tvůj|tvoje|chcete|chceš|preferujete/),
  whOpener: `^${whole(/proč|jak|co|kde|kdy|kdo|který|která|které|jaký|jaká|jaké/)}`,
  agentAsks: whole(/mám|máme|měl bych|měla bych|mohu|můžu/),
  answered: `^${whole(/ano|ne|jistě|samozřejmě|protože|budu|pokračuji/)}`,
  request: [
    `${whole(/prosím/)},?\\s+${whole(/přidejte|přidej|sdílejte|sdílej|poskytněte|poskytni|pošlete|pošli|vložte|vlož|potvrďte|potvrď|uveďte|uveď|vyberte|vyber|upřesněte|upřesni|nahrajte|nahraj|popište|popiš/)}`,
    `${whole(/přidejte|sdílejte|poskytněte|pošlete|vložte|potvrďte|uveďte|vyberte|upřesněte|nahrajte|popište/)}${within(80)},?\\s+${whole(/prosím/)}`,
    `${whole(/dejte mi vědět|dej mi vědět|napište mi|napiš mi|řekněte mi|řekni mi/)}${within(40)}${whole(/kterou|který|která|které|jakou|jaký|zda|jestli/)}`,
  ].join("|"),
  leadIn: whole(/nyní|teď|pak|potom|nejprve|nejdřív|prosím|poté|dále/),
  imperative: `^${whole(
    /spusťte|spusť|otestujte|otestuj|vyzkoušejte|vyzkoušej|zkuste|zkus|zkontrolujte|zkontroluj|ověřte|ověř|restartujte|restartuj|obnovte|obnov|načtěte znovu|otevřete|otevři|zavřete|zavři|přihlaste se|přihlas se|vyberte|vyber|zvolte|zvol|potvrďte|potvrď|schvalte|schval|zkontrolujte|sdílejte|sdílej|pošlete|pošli|vložte|vlož|poskytněte|poskytni|dejte mi vědět|dej mi vědět|napište mi|napiš mi|řekněte mi|řekni mi|nahrajte|nahraj|přiložte|přilož|popište|popiš/,
  )}`,
  polite: whole(/prosím|můžete|mohl byste|mohla byste|mohli byste|můžeš|mohl bys|musíte|budete muset|potřebuji, abyste|potřebuju, abyste|je potřeba, abyste/),
  giveBack: [
    `${whole(/sdílejte|sdílej|pošlete|pošli|vložte|vlož|poskytněte|poskytni|nahrajte|nahraj|přiložte|přilož|zkopírujte|zkopíruj/)}${within(80)}${whole(/výstup|výsledek|výsledky|log|logy|chybu|chyby|chybovou|snímek|obsah|sem|mi|mně|do chatu|trasování|soubory|soubor/)}`,
    `${whole(/dejte mi vědět|dej mi vědět|napište mi|napiš mi|řekněte mi|řekni mi/)}${within(40)}${whole(/který|která|které|kterou|co|zda|jestli|jak|kdy|až|jakmile|výsledek/)}`,
    whole(/potvrďte|potvrď|schvalte|schval|rozhodněte|rozhodni|zvolte|zvol|vyberte|vyber|upřesněte|upřesni/),
  ].join("|"),
  yourself: whole(/sami|sám|sama|na svém počítači|u sebe|lokálně/),
  lookAtChange: `^${whole(/obnovte|obnov|restartujte|restartuj|načtěte znovu/)}${within(60)}${whole(/a zkontrolujte|a zkontroluj|a ověřte|a ověř|a otestujte|a zkuste|abyste ověřili|pro kontrolu/)}`,
  continues: whole(/abych mohl|abych mohla|abych mohl pokračovat|a já budu pokračovat|a pak budu pokračovat|a já opravím|pak mohu|pak můžu|potom mohu|než budu pokračovat|pro pokračování|abych mohl(?:a)? pokračovat/),
  testRequest: `^(?:${whole(/prosím/)},?\\s+)?${whole(/otestujte|otestuj|vyzkoušejte|vyzkoušej|zkuste to|zkus to/)}(?:\\s+${whole(/to|změny|změnu|aplikaci|stránku|nyní|teď|znovu|prosím/)})*$`,
  testNext: [`^${whole(/spusťte|spusť|otevřete|otevři|restartujte|restartuj|obnovte|obnov|načtěte znovu|přihlaste se|přihlas se|znovu se přihlaste|odhlaste se|vymažte|vymaž/)}${within(80)}${whole(/a|pak|potom|poté/)},?\\s+${whole(/zkuste|zkus|zkuste to znovu|zkus to znovu|zkontrolujte|zkontroluj|ověřte|ověř|otestujte|otestuj/)}`, `^${whole(/zkuste to znovu|zkus to znovu|zkuste to ještě jednou|zkuste znovu/)}`].join("|"),
  personStep: `^${whole(/restartujte|obnovte|otevřete|zavřete|přihlaste se|vyberte|zvolte|potvrďte|schvalte|sdílejte|pošlete|vložte|poskytněte/)}`,
  awaits: [
    `${whole(/čekám na|počkám na|očekávám|potřebuji|potřebuju/)}\\s+${whole(/vaše|vaši|váš|vašeho|vašich|tvoje|tvůj|tvoji/)}\\s+${whole(
      /schválení|potvrzení|rozhodnutí|odpověď|souhlas|zpětnou vazbu|volbu|výběr|pokyny|soubory|soubor|data|token|vyjádření|ok/,
    )}`,
    whole(/po vašem schválení|po vašem potvrzení|jakmile potvrdíte|jakmile schválíte|s vaším souhlasem|čekám na vás|čekám na tebe/),
  ].join("|"),
  negated: whole(/bez vašeho|bez tvého|není potřeba|nepotřebuji/),
  handOver: `^${whole(/jakmile|až|když|poté co|poté, co/)}\\s+${within(60)}${WORD_START}\\p{L}+(?:te|š)${WORD_END}${within(60)},\\s*(?:${whole(/tak|pak|já|hned/)}\\s+)*(?:${whole(/budu|můžu|mohu|pokračuji|pokračuju|opravím|ukážu|zkusím|spustím|nasadím|podívám se|doplním|upravím/)}|${WORD_START}\\p{L}+(?:ám|ím)${WORD_END})`,
  depends: `^${whole(/pokud ano|pokud ne|jestli ano|jinak|v opačném případě|pokud souhlasíte|pokud to schválíte|pokud vám to vyhovuje|jakmile potvrdíte/)}`,
  choose: whole(/chcete|chceš|mám|preferujete|vyberte|vyber|zvolte|kterou možnost|která varianta|kterou variantu/),
  condition: `^${whole(/pokud|jestli|jestliže|kdyby|v případě|když/)}`,
  offer: whole(/pokud chcete|pokud budete chtít|kdybyste chtěl|kdybyste chtěla|kdybyste chtěli|pokud potřebujete|pokud budete potřebovat|v případě potřeby|v případě dotazů|neváhejte|pokud máte|kdykoli|pokud by|kdyby něco/),
  turnHeading: /připraveno k testování|k otestování|jak otestovat|jak to otestovat|co je potřeba udělat|na vás|vyžadována akce/.source,
  nextHeading: /další kroky|další krok|následující kroky/.source,
  tests: [
    `^(?:${whole(/prosím|nyní|teď/)},?\\s+)*(?:${within(60)}${whole(/a|pak/)}\\s+)?${whole(/otestujte|otestuj|vyzkoušejte|vyzkoušej|zkuste|zkus/)}(?!\\s+${whole(/si|spustit|najít/)})`,
    `${whole(/zkontrolujte|zkontroluj|ověřte|ověř|potvrďte|potvrď/)}${within(40)}${whole(/funguje|fungují|zda funguje|jestli funguje|v prohlížeči|ručně/)}`,
  ].join("|"),
  untested: [
    `${whole(/nemohl jsem|nemohla jsem|nemohu|nemůžu|nepodařilo se mi|nepodařilo se|nebylo možné|nemám jak|neměl jsem jak|neměla jsem jak/)}\\s+(?:${whole(/to|ji|je|ho/)}\\s+)?${whole(/otestovat|spustit|ověřit|vyzkoušet|zkontrolovat|testovat|otevřít/)}`,
    whole(/netestoval jsem|netestovala jsem|neotestoval jsem|neotestovala jsem|nespustil jsem|nespustila jsem|neověřil jsem|neověřila jsem|neotestováno|netestováno|neověřeno|bez otestování|bez testování|nebylo otestováno/),
  ].join("|"),
};

/** The rows, English first (agents answer in it whatever the person writes). */
export const FORMS: readonly Forms[] = [english, chinese, japanese, korean, russian, spanish, portuguese, german, french, italian, turkish, czech];
