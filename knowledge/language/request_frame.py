"""The request frame: a structural parse of what the user asks the robot to do.

:func:`parse_request` reads an English request into a :class:`RequestFrame`: a sequence of
:class:`Step` s, each with its action (a capability, from a verb lexicon with synonyms and
phrasal verbs), its object phrases (determiner, modifiers, quantity, negation: "a snack, but
not chips"), a spatial relation and its landmark, a tool ("with / using the X"), a recipient
("give it to Anna", "hand me") and a source ("from the fridge"). Steps are split at "then",
"and" + a verb, and commas before a verb ("open the fridge and take out the milk").

The grammar reads a lexicon of function words written as data (``request_words.yaml``).
Content words are never listed: any other word belongs to a noun phrase, so an object never
heard of is kept as said ("bring me the scissors"). No model is involved: the parse is
deterministic and cheap (cached per text); spaCy's English models are not on PyPI.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from cogtree.knowledge.language.closing_tags import as_read
from cogtree.knowledge.language.grammar import vague_places
from cogtree.knowledge.language.grammar.clause import (
    BREAK,
    INLINE_FILLERS,
    Clause,
    Word,
    bare_word,
    closes_on_purpose,
    gerund_base,
    longest,
    tokens,
)
from cogtree.knowledge.language.grammar.indirect_requests import gerunds_asked, unwrap
from cogtree.knowledge.language.grammar.noun_phrases import indirect_object, noun_phrase
from cogtree.knowledge.language.grammar.object_phrase import SPEAKER, ObjectPhrase
from cogtree.knowledge.language.grammar.pouring import poured
from cogtree.knowledge.language.grammar.statements import (
    STATEMENT_JOINERS,
    asked_after_a_statement,
    says_of_it,
    statement_follows,
    subject_words,
    tells_what_happened,
    where_it_is,
)
from cogtree.knowledge.language.grammar.wants import names_no_thing, wants_at
from cogtree.knowledge.language.grammar.words import ACTIONS, PARTICLES, Words, request_words
from cogtree.knowledge.scene.taxonomy import household_taxonomy

WANTED: Final = "bring"
"""The action of a step that asks for things ("can I have the X"): bring them to the speaker."""
NO_KIND: Final = ("", "")  # the kind of a verb naming no capability nor missing skill
MAX_PARSE_CHARS: Final = 1000
"""Only this many characters of a request are parsed (like the other fast paths)."""

Role = Literal["object", "landmark", "recipient", "tool", "source"]


@dataclass(frozen=True)
class Step:
    """One action of a request, with its phrases by role.

    ``verb``: the verb as a lemma phrase ("throw away"); ``action``: the capability it asks for
    (a key of the lexicon's ``actions``); ``unsupported``: the missing skill it asks for (a key
    of ``unsupported``), ``missing_skill`` how to say it ("cut things"); with neither, it names
    no action ("I'm thirsty"). ``relation``: a spatial relation ("on", "next_to"), ``landmark``
    its phrase. ``text``: the clause it was read from. ``purpose``: the clause opened with "to"
    and says what the step before is for ("... to clean the leaves"). ``statement``: read from
    where a thing should be ("the milk goes in the fridge") or a need naming no thing ("I need
    something from that drawer"), a step only when nothing else is asked. ``means``: "by" and a
    verb's -ing form say how to do the step before ("warm the soup by setting the pot on the
    hob"): what the robot is asked to do. ``bare``: a thing said alone ("a biscuit please").
    """

    text: str
    verb: str = ""
    action: str = ""
    unsupported: str = ""
    missing_skill: str = ""
    objects: tuple[ObjectPhrase, ...] = ()
    relation: str = ""
    landmark: ObjectPhrase | None = None
    recipient: ObjectPhrase | None = None
    tool: ObjectPhrase | None = None
    source: ObjectPhrase | None = None
    purpose: bool = False
    statement: bool = False
    means: bool = False
    bare: bool = False

    @property
    def wanted(self) -> tuple[ObjectPhrase, ...]:
        """The object phrases the user wants acted on (not negated)."""
        return tuple(phrase for phrase in self.objects if not phrase.negated)

    @property
    def excluded(self) -> tuple[ObjectPhrase, ...]:
        """The object phrases the user ruled out ("not chips")."""
        return tuple(phrase for phrase in self.objects if phrase.negated)

    def phrases(self) -> Iterable[ObjectPhrase]:
        """Every phrase of the step: objects, landmark, recipient, tool, source."""
        yield from self.objects
        for phrase in (self.landmark, self.recipient, self.tool, self.source):
            if phrase is not None:
                yield phrase


@dataclass(frozen=True)
class RequestFrame:
    """A request read into steps (see the module docstring); ``context``: clauses with no action.

    ``said_before``: earlier requests whose words its steps carry on ("and the pepper too").
    """

    text: str
    steps: tuple[Step, ...] = ()
    context: tuple[str, ...] = ()
    said_before: tuple[str, ...] = ()

    @property
    def actions(self) -> list[str]:
        """The capabilities the steps ask for, in order."""
        return [step.action for step in self.steps if step.action]

    @property
    def clear_actions(self) -> list[str]:
        """The capabilities of the steps that clearly ask the robot to act.

        A step does when its verb says what to do on its own, or when it names a place, a
        person, a source or a tool beside a verb of many senses ("set an alarm" asks nothing
        of the robot, "set the cup on the tray" does).
        """
        weak = request_words().weak_verbs
        return [
            step.action
            for step in self.steps
            if step.action
            and (
                tuple(step.verb.split()) not in weak
                or any(
                    role is not None
                    for role in (step.landmark, step.recipient, step.source, step.tool)
                )
            )
        ]

    @property
    def missing_skills(self) -> list[str]:
        """How to say each missing skill the request asks for ("cut things")."""
        return list(dict.fromkeys(step.missing_skill for step in self.steps if step.missing_skill))

    def phrases(self) -> list[ObjectPhrase]:
        """Every phrase of every step, in order."""
        return [phrase for step in self.steps for phrase in step.phrases()]


def parse_request(text: str) -> RequestFrame:
    """The frame of ``text`` (see the module docstring); never raises for any text."""
    return _parse(str(text)[:MAX_PARSE_CHARS])


@functools.lru_cache(maxsize=512)
def _parse(text: str) -> RequestFrame:
    lexicon = request_words()
    steps: list[Step] = []
    context: list[str] = []
    clauses = _clauses(gerunds_asked(tokens(as_read(text))), lexicon)
    bare = len(clauses) == 1 and not text.rstrip().endswith("?") and _bare_want(clauses[0], lexicon)
    before = ""  # what the clause before said, when it went to the context
    for clause in clauses:
        step = _of_it(replace(_read_clause(clause, lexicon, bare_want=bare), bare=bare), steps)
        if clause[0].text == "by" and step.action:
            step = replace(step, means=True)
        if step.purpose and not step.objects and context and context[-1] == before:
            context[-1] += f" to {step.text}"  # "the toast's about to pop": said of the toast
        elif step.action or step.unsupported or step.verb:
            steps.append(step)
        elif steps and step.objects and _continues(clause, lexicon):
            last = steps[-1]
            steps[-1] = replace(last, objects=(*last.objects, *step.objects))
        elif step.text:
            context.append(step.text)
        before = step.text
    if any(step.means for step in steps):
        # "warm my lunch by setting the box on the hob": the means is what to do, the rest why
        context += [step.text for step in steps if not step.means]
        steps = [replace(step, means=False) for step in steps if step.means]
    if len(steps) > 1 and any(step.statement for step in steps):
        # "the eggs belong in the fridge, pop them in": the statement says why, the rest asks
        context += [step.text for step in steps if step.statement]
        steps = [step for step in steps if not step.statement]
    return RequestFrame(text=text, steps=tuple(steps), context=tuple(context))


def _of_it(step: Step, before: Sequence[Step]) -> Step:
    """``step`` read for "it", the thing the step before named ("get the pan and scrub it")."""
    lexicon, verb = request_words(), tuple(step.verb.split())
    if not before or verb not in lexicon.shared_verbs or not all(p.pronoun for p in step.objects):
        return step
    kind, key = lexicon.reading(step.verb, lexicon.verbs[verb], before[-1].wanted)
    if kind == ACTIONS:
        return replace(step, action=key, unsupported="", missing_skill="")
    return replace(step, action="", unsupported=key, missing_skill=lexicon.says.get(key, ""))


def _bare_want(clause: Sequence[Word], lexicon: Words) -> bool:
    """Whether the request is only a thing asked for ("a biscuit please").

    It opens with a determiner or a quantity and holds no verb of the lexicon, subject or
    copula ("some grapes, not the green ones"), so it says "I'd like ..." without the words.
    Verbs that are no requests and also nouns do not count: "a drink" is a thing here.
    """
    words = [word.text for word in clause]
    if not words or (words[0] not in lexicon.determiners and words[0] not in lexicon.quantities):
        return False
    if words[0] in ("which", "what", "whichever") or any(
        longest(clause, index, lexicon.verbs) for index in range(len(clause))
    ):
        return False
    if _placement_statement(Clause(clause, lexicon)) is not None:
        return False  # "the towels belong behind the door": a statement of where a thing goes
    content = functools.partial(bare_word, lexicon=lexicon)
    if any(tells_what_happened(words, index, content) for index in range(1, len(words))):
        return False  # "the kettle sparked this morning": what happened, nothing asked for
    return not any(
        word in lexicon.copulas or (word in lexicon.subjects and word not in INLINE_FILLERS)
        for word in words
    )


def _continues(clause: Sequence[Word], lexicon: Words) -> bool:
    """A verbless clause that adds to the step before ("..., but not chips", "or the cup")."""
    first = [word.text for word in clause[:2]]
    return bool(first) and (
        first[0] in ("but", "or", "and", "not", "no", "except", "plus")
        or longest(clause, 0, lexicon.negations) > 0
    )


def _clauses(words: list[Word], lexicon: Words) -> list[list[Word]]:
    """Sentences split at sequencers, and at "and" / commas followed by a verb."""
    clauses: list[list[Word]] = [[]]
    index = 0
    while index < len(words):
        word = words[index]
        if word.text in BREAK:
            clauses.append([])
            index += 1
            continue
        sequencer = longest(words, index, lexicon.sequencers)
        if sequencer and clauses[-1] and not _of_a_noun(words, index + sequencer, lexicon):
            clauses.append([])
            index += sequencer
            continue
        base = gerund_base(words, index + 1, lexicon) if word.text == "by" else None
        if base is not None and clauses[-1]:
            clauses.append([word, Word(base, words[index + 1].said)])  # "by setting": a means
            index += 2
            continue
        asked = clauses[-1] and asked_after_a_statement(words, index, clauses[-1], lexicon)
        if asked and _verb_follows(words, index, lexicon):
            clauses.append([])  # "the table is all sticky could you give it a wipe"
        if word.text in STATEMENT_JOINERS and statement_follows(words, index + 1, lexicon):
            clauses.append([])  # "get the oven going, dinner goes in soon": says more, asks not
            index += 1
            continue
        if clauses[-1] and says_of_it(words, index, lexicon):
            clauses.append([])  # "turn the hob off it's on": the hob is on, no more asked
        if word.text in (",", "and", "to") and (
            _verb_follows(words, index + 1, lexicon)
            or (word.text != "to" and _tool_follows(words, index + 1, lexicon))
        ):
            opens_with_tool = any(said.text in TOOL_OPENERS for said in clauses[-1])
            describes_the_thing = word.text == "to" and closes_on_purpose(words, index + 1)
            modal = word.text == "to" and _ends_modal(words, index, lexicon)  # "is meant to"
            if word.text != "to" or not (opens_with_tool or describes_the_thing or modal):
                clauses.append([word] if word.text == "to" else [])  # "to": a purpose
                index += 1
                continue
        clauses[-1].append(word)
        index += 1
    return [clause for clause in clauses if clause]


ADDRESSING: Final = frozenset({"you", "please", "kindly"})
"""Openers that ask the listener ("can you", "please"): a verb follows them."""
TOOL_OPENERS: Final = frozenset({"use", "using"})
"""Words that open a clause with its tool: "use the tongs to lift the roll"."""


def _of_a_noun(words: list[Word], index: int, lexicon: Words) -> bool:
    """Whether the sequencer before ``index`` ends on a lone noun's determiner ("after that X")."""
    after = words[index + 1].text if index + 1 < len(words) else ""
    return (
        words[index - 1].text in lexicon.determiners
        and index < len(words)
        and bare_word(words[index].text, lexicon)
        and (not after or after in (",", *BREAK))
    )


def _verb_follows(words: list[Word], index: int, lexicon: Words) -> bool:
    """Whether a verb of the lexicon (after openers) starts at ``index`` and takes a phrase."""
    start, index = index, _after_openers(words, index, lexicon)
    size = longest(words, index, lexicon.verbs)
    # the head of a phrasal verb whose particle comes later ("turn it on")
    size = size or int(index < len(words) and words[index].text in lexicon.particles)
    if not size:
        return False
    after = words[index + size].text if index + size < len(words) else ""
    # "a can and a bottle": "can" here is no verb; a verb takes a phrase or ends the clause,
    # or follows an opener ("..., can you climb up and get it")
    addressed = any(word.text in ADDRESSING for word in words[start:index])  # "can you"
    alone = after not in (",", "and", "or") or addressed
    return alone and words[index].text not in lexicon.measures


def _tool_follows(words: list[Word], index: int, lexicon: Words) -> bool:
    """Whether "use" / "using" (after openers) starts at ``index``: "..., use the whisk to ..."."""
    index = _after_openers(words, index, lexicon)
    return index < len(words) and words[index].text in TOOL_OPENERS


def _after_openers(words: list[Word], index: int, lexicon: Words) -> int:
    """The index of the first word from ``index`` on that is no opener."""
    while index < len(words) and (opener := longest(words, index, lexicon.openers)):
        index += opener
    return index


def _ends_modal(words: list[Word], index: int, lexicon: Words) -> bool:
    """Whether the "to" at ``index`` ends a statement modal ("ought to", "is meant to")."""
    said = tuple(word.text for word in words[: index + 1])
    return any(
        modal[-1] == "to" and said[-len(modal) :] == modal for modal in lexicon.statement_modals
    )


def _placement_statement(clause: Clause) -> tuple[ObjectPhrase, str] | None:
    """The thing and the verb of "<thing> [modal] <verb of being somewhere> <place>".

    "the serviette should sit on the right of the plate" -> (the serviette, "should sit");
    the cursor moves past the verb. None (cursor kept) when the clause is no such statement.
    """
    lexicon = clause.lexicon
    start = clause.at
    for at in range(start + 1, min(start + 6, len(clause.words))):
        clause.at = at
        modal = clause.match(lexicon.statement_modals)
        clause.at += modal
        verb = clause.match(lexicon.statement_verbs)
        if not verb or not subject_words(clause.words[start:at], lexicon):
            continue
        said = clause.text(at, clause.at + verb)
        thing = noun_phrase(Clause(clause.words[start:at], lexicon))
        clause.at += verb
        if thing is not None and clause.match(lexicon.prepositions):
            return thing, said
    clause.at = start
    return None


def _skip_openers(clause: Clause) -> None:
    """Skip openers and the commas after them ("Please, use ...", "Then, put ...")."""
    while not clause.done and not clause.match(clause.lexicon.wants):  # "any chance of"
        size = clause.match(clause.lexicon.openers) or int(clause.word() == ",")
        if not size:
            return
        clause.at += size


def _read_clause(words: Sequence[Word], lexicon: Words, *, bare_want: bool = False) -> Step:
    """One clause as a step: openers, the verb, then phrases by role.

    A clause that opens with "to" says what the step before is for (``purpose``); one that
    opens with "by" (and a verb's base form, see :func:`_clauses`) says how. A ``bare_want``
    clause is read as if it opened with "I'd like" (:func:`_bare_want`).
    """
    purpose = bool(words) and words[0].text == "to"
    means = bool(words) and words[0].text == "by"
    words = words[1:] if purpose or means else words
    clause = Clause(words, lexicon)
    text = clause.text(0, len(words))
    _skip_openers(clause)
    unwrap(clause)
    recipient: ObjectPhrase | None = None
    tool: ObjectPhrase | None = None
    verb = ""
    kind_key: tuple[str, str] = NO_KIND
    wanted = wants_at(clause)
    if wanted or bare_want:
        clause.at += wanted
        verb, kind_key = WANTED, ("actions", WANTED)
        recipient = ObjectPhrase(text="me", head="me", pronoun=True, person=SPEAKER)
        _skip_openers(clause)
    elif clause.word() in ("use", "using"):
        clause.at += 1
        tool = noun_phrase(clause)
        if clause.word() == "to":
            clause.at += 1
    statement = None if verb else _placement_statement(clause)
    if statement is not None:
        return _statement_step(clause, text, *statement)
    if not verb:
        verb, kind_key = _verb(clause)
    state = _StepState(text=text, verb=verb, kind=kind_key, recipient=recipient, tool=tool)
    state.purpose = purpose
    throw = verb.partition(" ")[0] in lexicon.throw_verbs  # "chuck", "chuck over"
    if recipient is None and (kind_key[1] in (WANTED, lexicon.poured_as) or throw):
        state.recipient = indirect_object(clause)  # "chuck us the X": to us, not away
    _phrases(clause, state)
    vague = names_no_thing(state.objects, lexicon)  # "I need something", "I need it dry"
    if wanted and state.objects and vague:
        return replace(state.step(lexicon), statement=True)  # a need: why, if more is asked
    placed = vague_places.a_place_for(state.kind[1], state.objects, state.landmark, state.for_thing)
    if placed is not None:  # "find somewhere for the vase": put it there, the place unsaid
        state.kind, state.objects, state.relation = ("actions", "place"), [placed], ""
        state.landmark = None
    if state.kind[1] in OPENING_ACTIONS:
        state.objects = [_opened_by_its_part(phrase, lexicon) for phrase in state.objects]
    heads, place = [p.head for p in state.objects], state.landmark.head if state.landmark else ""
    if state.kind[1] == "place" and poured(heads, state.relation, place):
        state.kind = ("actions", lexicon.poured_as)  # "stick a splash of milk in my tea"
    if state.verb in lexicon.thing_verbs and not _goes_into_a_thing(state):
        state.kind = NO_KIND  # "add walnuts to my profile": a record, not a thing to pour into
    if (
        kind_key == ("actions", "dispose")
        and state.recipient is not None
        and state.recipient.preposition != "for"  # "dispose of it for me": on my behalf
        and throw
    ):
        state.kind = ("actions", "bring")  # "chuck it to me": thrown to someone, not away
    thrown = verb in lexicon.throw_verbs and state.recipient is None and state.landmark is None
    if thrown and state.kind[1] == "bring" and not any(p.where for p in state.objects):
        state.kind = NO_KIND  # "throw the pot": thrown to no one nor anywhere, no fetch
    return state.step(lexicon)


def _statement_step(clause: Clause, text: str, thing: ObjectPhrase, verb: str) -> Step:
    """The place step of a statement of where ``thing`` should be, or a step of nothing.

    Only a place with a determiner counts ("in the fridge", not "in soon").
    """
    state = _StepState(text=text, verb=verb, kind=("actions", "place"), objects=[thing])
    _phrases(clause, state)
    landmark = state.landmark
    if landmark is None or not landmark.determiner or len(state.objects) > 1:
        return Step(text=text)
    return replace(state.step(clause.lexicon), statement=True)


OPENING_ACTIONS: Final = frozenset(["open", "close"])
"""Actions a thing undergoes through its door or lid."""


def _opened_by_its_part(phrase: ObjectPhrase, lexicon: Words) -> ObjectPhrase:
    """Said when opening or closing, "its door" is "it", named by its part (a pronoun)."""
    its = phrase.determiner in ("its", "their") and phrase.head in lexicon.openings
    return replace(phrase, pronoun=True) if its else phrase


def _goes_into_a_thing(state: _StepState) -> bool:
    """Whether the step's place is a physical thing: a type the household taxonomy knows.

    "add the cream to the jug" (a jug), "add the milk to it" (the milk is a thing, so "it"
    is one too); not "add walnuts to my profile" nor "add this to the list".
    """
    landmark = state.landmark
    if landmark is None:
        return False
    if not landmark.pronoun:
        return household_taxonomy().type_named(landmark.text) is not None
    return any(
        not phrase.pronoun and household_taxonomy().type_named(phrase.text) is not None
        for phrase in state.objects
    )


def _verb(clause: Clause) -> tuple[str, tuple[str, str]]:
    """The verb at the cursor (phrasal verbs whole, longest first), or none."""
    lexicon = clause.lexicon
    if clause.match(lexicon.idioms):
        return "", NO_KIND
    size = clause.match(lexicon.verbs)
    word = clause.word()
    if size and not (size == 1 and word in lexicon.measures and clause.word(1) in ("you", "i")):
        words = tuple(clause.word(offset) for offset in range(size))
        clause.at += size
        return " ".join(words), lexicon.verbs[words]
    if word in lexicon.particles:  # "turn", "throw": the particle after the object decides
        clause.at += 1
        return word, NO_KIND
    if (
        word
        and word not in lexicon.determiners
        and word not in lexicon.pronouns
        and word not in lexicon.speaker
        and word not in lexicon.copulas
        and word not in lexicon.other_verbs
        and word not in lexicon.subjects
        and "'" not in word
        and word not in lexicon.quantities
        and not word.isdigit()
        and not clause.match(lexicon.prepositions)  # "on the counter": a place, no verb
        and (clause.word(1) in lexicon.determiners or clause.word(1) in lexicon.speaker)
    ):
        clause.at += 1  # an imperative verb the lexicon does not know: kept as said
        return word, NO_KIND
    return "", NO_KIND


@dataclass
class _StepState:
    """A step while its clause is read."""

    text: str
    verb: str
    kind: tuple[str, str]
    recipient: ObjectPhrase | None = None
    tool: ObjectPhrase | None = None
    objects: list[ObjectPhrase] = field(default_factory=list)
    relation: str = ""
    landmark: ObjectPhrase | None = None
    source: ObjectPhrase | None = None
    purpose: bool = False
    for_thing: ObjectPhrase | None = None  # after "for" and the object: "a place for the vase"
    told_where: bool = False  # the user said where the thing is ("... it's by the bed")

    def step(self, lexicon: Words) -> Step:
        kind, key = lexicon.reading(self.verb, self.kind, self.objects)
        return Step(
            text=self.text,
            verb=self.verb,
            action=key if kind == "actions" else "",
            unsupported=key if kind == "unsupported" else "",
            missing_skill=lexicon.says.get(key, "") if kind == "unsupported" else "",
            objects=tuple(self.objects),
            relation=self.relation,
            landmark=self.landmark,
            recipient=self.recipient,
            tool=self.tool,
            source=self.source,
            purpose=self.purpose,
        )


def _phrases(clause: Clause, state: _StepState) -> None:
    """Read the rest of the clause: objects, prepositional phrases, particles."""
    lexicon = clause.lexicon
    negated = alternative = after_negated = False
    while not clause.done:
        word = clause.word()
        if word in lexicon.subordinators or clause.asks_back():
            if word == "where" and state.kind[1] == "place" and state.landmark is None:
                state.kind = ("actions", vague_places.where_it_goes(state.objects, lexicon))
            return  # "... back where it belongs": the rest says more, asks for nothing
        remains = clause.match(lexicon.remains)
        if remains:
            clause.at += remains  # "what is left of the juice": the juice
            continue
        split = clause.verb_tail(state.verb.split(" ")[0])
        if split is not None:  # "get the oven going": the verb ends after its object
            tail, state.kind = split
            state.verb = f"{state.verb} {' '.join(tail)}"
            clause.at += len(tail)
            continue
        action = clause.noun_of_action() if state.verb in lexicon.light_verbs else None
        acted = lexicon.verbs.get(action.verb, NO_KIND) if action is not None else state.kind
        if action is not None and state.objects and acted != state.kind:
            state.verb = f"{state.verb} {clause.text(clause.at, clause.at + action.size)}"
            state.kind = acted  # "give the hob a wipe": wipe the hob; "a drench": no action
            clause.at += action.size
            continue
        if vague_places.names_no_place(clause, state.kind[1], state.objects):
            clause.at += 1  # "somewhere near the bowl": near the bowl; "seen it anywhere?"
            continue
        if word in lexicon.vague_places:
            said = clause.words[clause.at].said
            state.relation = state.relation or "to"
            state.landmark = state.landmark or ObjectPhrase(text=said, head=word, pronoun=True)
            clause.at += 1 + int(vague_places.says_what_place(clause))  # "somewhere nice"
            continue
        negation = clause.match(lexicon.negations)
        if negation:
            clause.at += negation
            negated = True
            continue
        adverbial = clause.match(lexicon.adverbials)
        if adverbial:
            clause.at += adverbial  # "blade first": how, not what
            continue
        conjunction = clause.match(lexicon.conjunctions)
        if conjunction or word in (",", "but"):
            alternative = word == "or"
            negated = negated or (after_negated and word in ("or", "nor"))  # "not A or B"
            clause.at += conjunction or 1
            continue
        if _leaves_it(clause, state):  # "slide it open": open it
            state.kind = ("actions", lexicon.results[word])
            state.verb = f"{state.verb} {word}"
            clause.at += 1
            continue
        if _ends_phrasal_verb(clause, state.verb, bool(state.objects)):
            phrasal = (state.verb, word)
            state.verb = " ".join(phrasal)
            state.kind = lexicon.verbs[phrasal]
            clause.at += 2 if _setting_follows(clause) else 1  # "switch it on low": on
            continue
        if state.objects and (told := where_it_is(clause.words, clause.at, lexicon)):
            clause.at, state.told_where = clause.at + told, True  # "... it's by the bed"
            continue
        preposition = clause.match(lexicon.prepositions)
        if preposition:
            words = tuple(clause.word(offset) for offset in range(preposition))
            role, relation = lexicon.prepositions[words]
            said = clause.text(clause.at, clause.at + preposition)
            clause.at += preposition
            _prepositional(clause, state, role, relation, said)
            continue
        if word in INLINE_FILLERS or word in lexicon.copulas or word == "to":
            clause.at += 1
            continue
        before = clause.at
        phrase = noun_phrase(clause, negated=negated, alternative=alternative)
        if phrase is not None:
            if not (phrase.negated and phrase.text == phrase.quantity):  # "not too much": how much
                state.objects.append(phrase)
            after_negated = phrase.negated
            negated = alternative = False
        if clause.at == before:
            clause.at += 1


def _leaves_it(clause: Clause, state: _StepState) -> bool:
    """Whether the word at the cursor ends the clause as a result ("slide it open", "shut")."""
    return bool(state.verb) and bool(state.objects) and clause.result_word()


def _ends_phrasal_verb(clause: Clause, verb: str, objects: bool) -> bool:
    """Whether the word at the cursor is the particle of ``verb``, before or after its object.

    "turn the light off", "put the milk away": the particle ends the phrase (nothing but a
    filler, a conjunction or the end follows), so "take the milk out of the fridge" keeps
    "out of" as a source. With no object yet, one must follow ("bring us over the cokes").
    """
    word, after, lexicon = clause.word(), clause.word(1), clause.lexicon
    if word not in PARTICLES or word not in lexicon.particles.get(verb, ()):
        return False
    opens = after in lexicon.determiners or after in lexicon.quantities  # "over the cokes"
    if word in ("away", "back") or (not objects and opens):
        return True  # "put the mug back where it belongs": never a preposition here
    return clause.closes(1) or _setting_follows(clause)


def _setting_follows(clause: Clause) -> bool:
    """Whether a setting ends the clause after the particle at the cursor ("on low")."""
    return clause.word(1) in clause.lexicon.settings and clause.closes(2)


def _prepositional(clause: Clause, state: _StepState, role: str, relation: str, said: str) -> None:
    """Give the phrase after a preposition (``said``) its role; one ruled out after it: none."""
    phrase = noun_phrase(clause)
    if phrase is None:
        return
    ruled = longest(clause.words, clause.at + 1, clause.lexicon.negations)
    if clause.word() == "," and ruled and clause.word(1) != "no":  # ", no Mia" corrects it
        at, clause.at = clause.at, clause.at + 1 + ruled
        other = noun_phrase(clause, negated=True)
        clause.at = at if other is None or other.text == other.quantity else clause.at  # "much"
    phrase = replace(phrase, preposition=said)
    named_for = state.recipient and state.objects and not state.objects[-1].pronoun  # not "it"
    if role == "recipient" and phrase.quantity and phrase.head == phrase.quantity:
        return  # "for seven", "for 2": a time or a count, not someone
    if role in ("destination", "recipient") and _names_someone(clause, phrase):
        phrase = ObjectPhrase(**{**phrase.__dict__, "person": phrase.text})
    if role == "tool":
        state.tool = state.tool or phrase
    elif role == "source":
        state.source = state.source or phrase
    elif phrase.person or (role == "recipient" and phrase.pronoun):
        state.recipient = state.recipient or _as_person(phrase)
    elif role == "recipient" and state.objects:
        state.for_thing = state.for_thing or phrase
    elif role == "recipient":
        state.objects.append(phrase)
    elif role == "destination" and not phrase.determiner and (state.landmark or named_for):
        return  # a purpose: "put it on the stove to dry", "get me a magazine to flick through"
    elif state.landmark is not None or state.told_where or _describes_object(state):
        _locate(state, phrase)
        state.told_where = False  # "it's on the table to the sink": the sink is where it goes
    else:
        state.relation = relation or "to"
        state.landmark = phrase


def _names_someone(clause: Clause, phrase: ObjectPhrase) -> bool:
    """A bare capitalised name after "to" / "for" ("to Anna", "for Mr Okafor")."""
    if phrase.determiner or phrase.quantity or phrase.pronoun:
        return False
    said = [word.said for word in clause.words if word.text in phrase.text.lower().split()]
    return bool(said) and all(word[:1].isupper() for word in said)


def _describes_object(state: _StepState) -> bool:
    """Whether a place phrase after the object says where it is rather than where it goes.

    "bring me the bottle on the table" (the bottle that is on the table) against "put the
    bottle on the table" (put it there): fetching, finding and disposing do not place.
    """
    action = state.kind[1]
    fetching = action == "bring" and (
        state.recipient is not None or state.verb in ("get", "fetch", "grab", "hand", "pass")
    )
    describing = ("find", "dispose", "open", "close", "wipe", "switch_on", "count", "have")
    return bool(state.objects) and (fetching or action in describing)


def _locate(state: _StepState, phrase: ObjectPhrase) -> None:
    """Attach a place phrase to the thing it locates (the last object, or the landmark)."""
    where = f"{phrase.preposition} {phrase.described}".strip()
    if state.landmark is not None:
        state.landmark = _extend(state.landmark, where)
    elif state.objects:
        state.objects[-1] = _extend(state.objects[-1], where)


def _extend(phrase: ObjectPhrase, where: str) -> ObjectPhrase:
    return replace(phrase, where=f"{phrase.where} {where}".strip())


def _as_person(phrase: ObjectPhrase) -> ObjectPhrase:
    return phrase if phrase.person else replace(phrase, person=phrase.head)
