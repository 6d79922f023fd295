"""Noun phrases of a request clause: the thing, and who receives it before it.

:func:`noun_phrase` reads the phrase at a clause's cursor (determiner, quantity, describing
words, head, an "of" complement, a relative clause after it); :func:`indirect_object` the
recipient a fetch or a throw names before its object ("hand me the X", "give Anna the cup",
"give the plant a soak"). Both move the cursor past what they read, and leave it where it was
when there is none.

A relative clause says more about the thing and is no part of its name ("any rubbish that's
lying about", "the mug I left on the table"): :func:`opens_relative` says where one opens, by
the grammar's ``relatives`` (``request_words.yaml``). A subject pronoun opens one on its own,
and so does a contracted relative ("that's"); a bare relative pronoun ("that", "which", "who")
only when a verb's auxiliary, a copula or a subject follows it, since "give the dog that
chocolate" names a second thing with "that" as its determiner.
"""

from __future__ import annotations

from typing import Final

from cogtree.knowledge.language.grammar.clause import (
    INLINE_FILLERS,
    Clause,
    bare_word,
    longest,
)
from cogtree.knowledge.language.grammar.object_phrase import SPEAKER, ObjectPhrase
from cogtree.knowledge.language.grammar.statements import where_it_is
from cogtree.knowledge.language.grammar.words import PARTICLES, Words
from cogtree.knowledge.wording import (
    ARTICLES,
    INNER_OUTER_WORDS,
    ONES,
    POINTING,
    REGION_WORDS,
    head_word,
    looks_plural,
)
from cogtree.knowledge.wordnet.lemmas import shipped_lemmas
from cogtree.knowledge.wordnet.nouns import BEINGS, shipped_nouns

BARE_RELATIVES: Final = frozenset(["that", "which", "who"])
"""Relative pronouns that are also determiners or question words: they need a clause after."""
AUXILIARIES: Final = frozenset(
    ["has", "had", "have", "will", "would", "can", "could", "should", "might", "must", "may",
     "did", "does", "do", "used"]
)  # fmt: skip
"""Verbs that open a clause after a bare relative pronoun ("the mug that has a chip")."""


def opens_relative(word: str, after: str, lexicon: Words) -> bool:
    """Whether ``word`` (followed by ``after``) opens a relative clause after a noun."""
    if word not in lexicon.relatives:
        return False
    if word not in BARE_RELATIVES:
        return True
    return after in lexicon.copulas or after in AUXILIARIES or after in lexicon.relatives


def owns_next(clause: Clause) -> bool:
    """Whether the person pronoun at the cursor is a possessive before a noun ("her bottle").

    "top her bottle up", "take her cup to the sink": her bottle, her cup. A pronoun before a
    determiner, a count, a pronoun, a particle, a preposition or the end is the person:
    "give her the bottle", "give her one", "pick her up", "take her to the park"; so is one
    after "for", whom a thing is for ("... to Dr Weber for her signature": what she is to do
    stays a phrase of its own, and no step drops it), and one after a verb before a plural
    ("give her flowers" may be to her; a singular needs its article, "give her a flower").
    """
    lexicon, after = clause.lexicon, clause.word(1)
    if clause.word() not in lexicon.determiners or after in PARTICLES or clause.closes(1):
        return False
    after_a_verb = (clause.word(-1),) in lexicon.verbs  # "give her flowers": to her, maybe
    if clause.word(-1) == "for" or (after_a_verb and looks_plural(after)):
        return False
    return not ({after} & (lexicon.determiners | lexicon.quantities | lexicon.pronouns))


def noun_phrase(
    clause: Clause, *, negated: bool = False, alternative: bool = False
) -> ObjectPhrase | None:
    """The noun phrase at the cursor: determiner, quantity, modifiers, head, "of" complement."""
    lexicon = clause.lexicon
    start = clause.at
    determiner = quantity = ""
    if clause.word() in lexicon.speaker:
        word = clause.word()
        clause.at += 1
        return ObjectPhrase(text=word, head=word, pronoun=True, person=SPEAKER, negated=negated)
    if clause.word() in lexicon.people_pronouns and not owns_next(clause):
        word = clause.word()
        clause.at += 1
        return ObjectPhrase(text=word, head=word, pronoun=True, person=word, negated=negated)
    if clause.word() in lexicon.determiners:
        determiner = clause.word()
        clause.at += 1
        if determiner in lexicon.pronouns and clause.noun_of_action() is not None:
            return ObjectPhrase(text=determiner, head=determiner, pronoun=True, negated=negated)
    quantity_start = clause.at
    if approximate(clause):  # "about half a cup of": an amount
        clause.at += 1
    while clause.word() in lexicon.quantities or clause.word().isdigit() or clause.word() == "of":
        if clause.word() == "of" and clause.at == quantity_start:
            break
        clause.at += 1
    after = int(clause.at > quantity_start and clause.word() in lexicon.determiners)  # "half a"
    if measure := clause.measure(after):  # "a glass of", "a small glass of the"
        clause.at += measure + after
    elif clause.word(-1) == "of" and clause.word() in lexicon.pronouns:  # "one of those cokes"
        clause.at += int(bare_word(clause.word(1), lexicon))
    quantity = clause.text(quantity_start, clause.at) if clause.at > quantity_start else ""
    content: list[str] = []
    content_start = clause.at
    while not clause.done and not clause.is_boundary():
        word = clause.word()
        if content and where_it_is(clause.words, clause.at, lexicon):
            break  # "my glasses they should be by the sofa": where they are, read by the step
        if set(content) - {"of"} and opens_relative(word, clause.word(1), lexicon):
            break  # "the mug (that) I left on the table": a relative clause, skipped below
        if word in lexicon.pronouns and content and word not in ONES:
            region = clause.word(-1) == "of" and content[0] in REGION_WORDS  # "the inside of it"
            if word in lexicon.indefinites or region:  # "the cleaning stuff": what stuff
                content.append(word)
                clause.at += 1
            break
        if word == "of" and content and not clause.is_boundary():
            clause.at += 1
            continue
        if content and any(clause.verb_tail(verb) for verb in lexicon.split_verbs):
            break  # "get the oven going": the verb's last words are no part of the thing
        if content and approximate(clause):
            break  # "Leo about half a cup of milk": the amount opens the next phrase
        if content and clause.noun_of_action():
            break  # "give the hob a wipe": the noun of action is no part of the thing
        if content and clause.result_word():
            break  # "push the door shut": the state it is left in, no part of the thing
        if word in PARTICLES and (
            clause.word(1) in ("", ",", "and", "then", "or", "please")
            or longest(clause.words, clause.at + 1, lexicon.prepositions)
            or clause.word(1) in lexicon.determiners  # "an egg out the fridge": where from
        ):
            break  # "set the board down on the stove": the verb's particle, not the thing
        content.append(word)
        clause.at += 1
        if word in lexicon.pronouns and word not in ONES:
            if word in lexicon.indefinites:
                continue  # "something printed", "anything sweet": still names nothing
            break
    end = clause.at
    relative = set(content) - {"of"} and not where_it_is(clause.words, clause.at, lexicon)
    if relative and opens_relative(clause.word(), clause.word(1), lexicon):
        clause.at += 1
        while not clause.done and (
            clause.word() in lexicon.copulas or not clause.is_boundary() or _says_when(clause)
        ):
            clause.at += 1  # "the mug that's just been washed": all of it says which mug
    words = [word for word in content if word != "of"]
    if not words and not determiner and not quantity:
        clause.at = start
        return None
    text = clause.text(start, end)
    if not words:
        head = determiner or quantity
        return ObjectPhrase(text=text, head=head, determiner=determiner, quantity=quantity,
                            negated=negated, alternative=alternative, pronoun=True)  # fmt: skip
    opened = "the" if determiner or quantity else ""  # "every side of the box": the box
    head = head_word(" ".join([opened, *(w.text for w in clause.words[content_start:end])]))
    modifiers = tuple(word for word in words if word != head)
    heap = head in lexicon.indefinites and len(words) > 1  # "the dairy stuff": of a kind
    pronoun = words[0] in lexicon.indefinites or (head in lexicon.pronouns and not heap)
    pronoun |= bool(determiner) and [head] == words and head in INNER_OUTER_WORDS  # of "it"
    pronoun |= head in POINTING  # "the inside of this": whole_named gives "this"
    return ObjectPhrase(text=text, head=head, modifiers=modifiers, determiner=determiner,
                        quantity=quantity, negated=negated, alternative=alternative,
                        pronoun=pronoun, relative=clause.text(end, clause.at))  # fmt: skip


def approximate(clause: Clause) -> bool:
    """Whether the word at the cursor says the measure after it is not exact.

    "about half a cup of", "roughly 150 ml of"; "the book about two dogs" says none ("about
    halfway" is an adverbial of the lexicon: how full, not what).
    """
    lexicon = clause.lexicon
    if clause.word() not in lexicon.approximations:
        return False
    at = 1
    while clause.word(at) in lexicon.quantities or clause.word(at).isdigit():
        at += 1
    return bool(clause.measure(at + int(clause.word(at) in lexicon.determiners)))


def indirect_object(clause: Clause) -> ObjectPhrase | None:
    """The recipient of "hand me the X", "give Anna the cup", "pass him the salt"."""
    lexicon, word = clause.lexicon, clause.word()
    follows = clause.word(1)
    counted = follows in lexicon.determiners or follows in lexicon.quantities  # "him one of"
    opens_phrase = counted or (
        follows and follows not in INLINE_FILLERS and not clause.match(lexicon.prepositions)
    )
    if word in lexicon.speaker:
        clause.at += 1
        return ObjectPhrase(text=word, head=word, pronoun=True, person=SPEAKER)
    if word in lexicon.people_pronouns and counted:
        clause.at += 1
        return ObjectPhrase(text=word, head=word, pronoun=True, person=word)
    name_end = clause.at
    while name_end < len(clause.words) and clause.words[name_end].said[:1].isupper():
        name_end += 1
        if clause.words[name_end - 1].text.endswith("'s"):
            name_end = clause.at  # "fetch Mum's cup": whose it is, not who receives it
            break
    if name_end > clause.at and word not in lexicon.determiners and opens_phrase:
        said = clause.text(clause.at, name_end)
        head = clause.words[name_end - 1].text
        clause.at = name_end
        return ObjectPhrase(text=said, head=head, person=said)
    if bare_word(word, lexicon) and follows in lexicon.determiners:
        said = clause.words[clause.at].said  # "give grandma the knife": a bare noun, then
        clause.at += 1  # the object's determiner: the bare noun is who receives it
        return ObjectPhrase(text=said, head=word, person=said)
    return _first_of_two(clause) if word in lexicon.determiners else None


def _first_of_two(clause: Clause) -> ObjectPhrase | None:
    """The first of two noun phrases ("give the plant a soak"): who or what receives the second.

    The second opens with an article ("a soak"), or with any determiner or count when the
    first's head is first of all a person or an animal in the English dictionary ("give the
    baby the tumbler", "get the kids some juice", "give the baby two beakers", "bring the dog
    its bowl"). Not when the second is a
    noun of action ("give the hob a wipe") or a degree ("a bit closer").
    """
    start, end, lexicon = clause.at, clause.at + 1, clause.lexicon
    stops = (lexicon.prepositions, lexicon.conjunctions, lexicon.verbs)
    while end < len(clause.words) and bare_word(clause.words[end].text, lexicon):
        if clause.words[end].text == "of" or any(longest(clause.words, end, w) for w in stops):
            return None  # "the top of the fridge", "carry the laundry to the bathroom"
        end += 1
    clause.at = end
    opener = clause.word()
    counted = opener in lexicon.determiners or opener in lexicon.quantities or opener.isdigit()
    second = opener in ARTICLES or (counted and _someone(clause.words[end - 1].text))
    second = second and clause.noun_of_action() is None and not clause.degree()
    if end == start + 1 or not second:
        clause.at = start
        return None
    return ObjectPhrase(text=clause.text(start, end), head=clause.words[end - 1].text)


def _someone(word: str) -> bool:
    """Whether ``word`` (or its singular) is first of all a person or an animal ("kids")."""
    nouns, lemmas = shipped_nouns(), shipped_lemmas()
    base = (lemmas.lemma_of(word, "noun") if lemmas else None) or word
    return nouns is not None and nouns.first_in(base, BEINGS)


def _says_when(clause: Clause) -> bool:
    """Whether the word at the cursor is an adverb inside the verb of a relative clause.

    "that's just been made", "that I just put down", "that was only washed yesterday": the
    adverb (the English dictionary knows it as one) stays in the clause when it follows the
    clause's subject, copula or auxiliary, or precedes a copula or an inflected verb. After
    other words, before a verb's base form, it opens the next request ("that's dirty so wash
    it").
    """
    lemmas = shipped_lemmas()
    lexicon, before, following = clause.lexicon, clause.word(-1), clause.word(1)
    if lemmas is None or lemmas.lemma_of(clause.word(), "adv") is None:
        return False
    inside = before in lexicon.copulas or before in AUXILIARIES or before in lexicon.relatives
    inside = inside or before in lexicon.subjects
    base = lemmas.lemma_of(following, "verb")
    return inside or following in lexicon.copulas or base not in (None, following)
