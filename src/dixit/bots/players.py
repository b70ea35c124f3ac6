"""Computer players that read the cards: listener, decoy and storyteller skills.

One class plays every level above ``random``; a :class:`Skill` says how well. The storyteller
takes its candidate clues from the card's clue bank (written by people from the picture, from
literal to poetic; a card without one offers its title and themes instead), never a label of
what the card shows, never a clue already said in the game or told for that card before. It
scores each by simulating the other players over plausible tables: the other cards on the table
are drawn from the deck minus what it can see (its hand and the cards already played), each
other player brings the card of a random hand that best fits the clue, and each listener votes
by a noisy reading of *what the pictures show* (the skill's ``predicts_with``: not the bank, not
the themes: what a person at the table has to go on; a person as the picture-only panel's
raters did, a computer as computer listeners read). It keeps the clue whose chance
that some but not all find the card is highest, minus a cost for a clue that mostly describes
the picture, plus the level's leaning towards the kinds of clue people rate higher (a better
storyteller prefers a saying or an idea to a plain "thing"), with a nudge towards a kind of
clue it has not just used and a little chance among near-best ones. Nothing hidden is
read: only the view and the book.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from dixit.engine import CastVote, GiveClue, PlayerView, SubmitCards, VoidCard

from .base import BotCommand
from .cardbook import SEEN, CardBook, Reading
from .random_bot import words_for
from .text import content_words, stem

HAND = 6
MAX_CLUE = 80  # characters: longer phrases are not offered as clues
STYLE_REPEAT = 0.06  # against a kind of clue among this player's last two this game
TABLE_STYLES = 4  # facing people: against a kind among the game's last four clues instead
VARIETY = 0.05  # a random nudge among near-best clues: the same card need not get the same clue
PLAINNESS = 0.3  # against a clue whose words beyond half are the words of what the card shows
LABEL_WORDS = 2  # a clue of at most this many words, all naming the card's main things, is a label
TEXT_KINDS = {"title": "saying", "themes": "idea"}
PRIOR_READER = 0.9  # how reliably an unknown player is expected to read
PRIOR_VOTES = 4.0  # weight of that expectation, in votes
SLOPPY_NOISE = 0.12  # extra model noise at a table of random readers
MODEL_ACCURACY = 0.6  # how often a reader like the model finds the card (typical tables)
BELIEF_NOISE = 0.15  # how sharply a listener trusts its own reading when it weighs a second vote
SOME_POINTS = 3  # what finding the card usually scores (some, not all, found it)
GIVEN = 1  # the point a second vote gives its card's owner, a rival
RIVAL = 0.8  # another card that fits the clue at least this well, as a share of the card's fit
RIVALS_CAP = 4  # rivals counted up to this many
WORDS_CAP = 8  # a clue's words counted up to this many
MARGIN_FLOOR = -0.3  # margins below count as this: the panel has few rounds there (48 of 674)


@dataclass(frozen=True, slots=True)
class PictureReader:
    """How a person reading the pictures finds the storyteller's card: with chance
    ``sigmoid(bias + kinds[kind] + words w + clue m_clue + anchor m_anchor + rivals r)``.

    ``m_clue``, ``m_anchor``: how much better the card fits than the best other card on the
    table ((mine - best) / max, at least :data:`MARGIN_FLOOR`), by the clue and by the visible
    thing it hangs on (its anchor), as the cards' descriptions read them; ``r``: the other
    cards that fit the clue at least :data:`RIVAL` as well as the card (:func:`rivals`); ``w``:
    the clue's length (:func:`clue_length`); ``kinds``: the kinds of clue found more or less
    often than a saying,
    an idea or a situation.
    """

    bias: float
    clue: float
    anchor: float
    rivals: float
    words: float
    kinds: Mapping[str, float]

    def prior(self, clue: str, kind: str) -> float:
        """The part of the logit that does not depend on the table."""
        return self.bias + self.kinds.get(kind, 0.0) + self.words * clue_length(clue)


def clue_length(clue: str) -> float:
    """A clue's words, up to :data:`WORDS_CAP`, as a share of it (longer clues say more)."""
    return min(len(clue.split()), WORDS_CAP) / WORDS_CAP


def rivals(count: float | npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Other cards that fit as well as nearly the card, up to :data:`RIVALS_CAP`, as a share."""
    return np.minimum(count, RIVALS_CAP) / RIVALS_CAP


# Fitted on the picture-only panel's 674 banked rounds, rounds 1-4 (tools/clue_panel_fit.py,
# docs/ai.md "Who is a person"): the raters found the card in 85 %; less often with a rival
# card on the table, a feeling, a short clue; more often with a "thing" (a plain description).
PICTURE_READER = PictureReader(
    bias=1.81, clue=0.96, anchor=0.83, rivals=-1.06, words=0.93,
    kinds={"feeling": -0.35, "thing": 0.94},
)  # fmt: skip
# Facing people, a leaning per kind of clue (against a saying) and against a clue of at most
# SHORT_CLUE words: 0.6 per point of rating the panel gave less at an equal chance of finding
# the card (rounds 1-4, tools/clue_panel_fit.py), times the share of the other seats that are
# people. On top of the level's kind_taste, which leans the same way at every table. 0.6
# rather than 0.3 (round 9) and 0.3 rather than 0.1 (round 6): each rated higher in a blind
# A/B round of the panel (docs/ai.md), the card found no more often. None against a feeling or
# an idea since the banks' flat mood labels were rewritten (rounds 12-13; round 14: no loss).
SHORT_CLUE = 2
PEOPLE_TASTE = {"situation": -0.162, "thing": -0.552}
PEOPLE_SHORT = -0.18

People = Callable[[], AbstractSet[str]]


def nobody() -> AbstractSet[str]:
    """No seat is known to be a person: every other player is modelled as a computer."""
    return frozenset()


def reliabilities(view: PlayerView, others: list[str]) -> list[float]:
    """How reliably each of ``others`` reads, from the public record of their past votes.

    A player who finds the storyteller's card as often as chance scores 0, one who finds it as
    often as a good reader (:data:`MODEL_ACCURACY`) scores 1; the prior weighs
    :data:`PRIOR_VOTES` votes.
    """
    found = dict.fromkeys(others, 0.0)
    votes = dict.fromkeys(others, 0.0)
    chance = 0.0
    for scored in view.rounds:
        chance += 1.0 / max(len(scored.table) - 1, 1)
        for voter, card in scored.votes:
            if voter in found:
                votes[voter] += 1
                found[voter] += card == scored.storyteller_card
    base = chance / len(view.rounds) if view.rounds else 1.0 / 5
    out = []
    for p in others:
        prior = base + PRIOR_READER * (MODEL_ACCURACY - base)
        rate = (found[p] + prior * PRIOR_VOTES) / (votes[p] + PRIOR_VOTES)
        out.append(min(max((rate - base) / (MODEL_ACCURACY - base), 0.05), 1.0))
    return out


def deck_of(card_id: str) -> str:
    """The deck slug of a card id ``<slug>-<12 hex>`` (the whole id if it has no dash)."""
    return card_id.rsplit("-", 1)[0]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A clue a storyteller may tell: its words and its kind."""

    clue: str
    kind: str
    plain: float = 0.0  # share of its words that name what the card shows (0 to 1)
    anchor: str = ""  # the visible thing it hangs on (the bank's note; "" for a card's own text)


_NOT_WORD = re.compile(r"[^\w]+")


def said_key(clue: str) -> str:
    """A clue as compared for repeats: case, accents kept, punctuation and spacing ignored."""
    return _NOT_WORD.sub(" ", clue.casefold()).strip()


def plainness(clue: str, shown: frozenset[str], lang: str) -> float:
    """The share of a clue's words that are words of what the card shows."""
    words = content_words(clue)
    return sum(stem(w, lang) in shown for w in words) / len(words) if words else 0.0


def is_label(clue: str, labels: frozenset[str], lang: str) -> bool:
    """Whether a short clue only names the card's main things ("girl", "long beard")."""
    words = content_words(clue)
    return 0 < len(words) <= LABEL_WORDS and all(stem(w, lang) in labels for w in words)


def people_taste(candidate: Candidate) -> float:
    """The storyteller's leaning towards a clue facing people (:data:`PEOPLE_TASTE`)."""
    short = len(candidate.clue.split()) <= SHORT_CLUE
    return PEOPLE_TASTE.get(candidate.kind, 0.0) + (PEOPLE_SHORT if short else 0.0)


@dataclass(frozen=True, slots=True)
class Skill:
    """How well a level plays. ``noise`` is a softmax temperature over normalised fit (0: best)."""

    reading: Reading
    vote_noise: float
    decoy_noise: float
    tell_cards: int  # how many hand cards it considers telling about
    tell_clues: int  # candidate clues per card
    tables: int  # simulated tables per candidate (0: no simulation, a candidate at random)
    model_noise: float = 0.12  # how noisily it expects the others to read
    adapts: bool = False  # reads the other players' past votes to judge how well they read
    predicts_with: Reading = SEEN  # how it expects computer listeners to read (what the
    # pictures show; a person is read with SEEN, the reading the person model was fitted on)
    kind_taste: Mapping[str, float] = field(default_factory=dict)  # leaning per kind of clue
    taste: float = 0.0  # spread of its own lasting leaning towards each card when it votes


def _softmax_pick(rng: random.Random, fits: list[float], noise: float) -> int:
    """Index of the best fit (ties at random), or a sample when ``noise`` > 0."""
    top = max(fits)
    if noise <= 0 or top <= 0:
        best = [i for i, f in enumerate(fits) if f >= top - 1e-9]
        return rng.choice(best)
    weights = [math.exp((f / top - 1.0) / noise) for f in fits]
    return rng.choices(range(len(fits)), weights)[0]


class ReadingBot:
    """A computer player of one level; deterministic for a seeded ``rng``."""

    def __init__(
        self,
        name: str,
        skill: Skill,
        *,
        rng: random.Random,
        lang: str,
        book: CardBook,
        people: People = nobody,
    ) -> None:
        self.name = name
        self.skill = skill
        self.rng = rng
        self.lang = lang
        self.book = book
        self.people = people  # the seats that are people (public: the table marks computers)
        self._taste_seed = rng.getrandbits(64) if skill.taste > 0 else 0

    def taste(self, card: str) -> float:
        """This player's own leaning towards a card, the same all game (people read the same
        picture differently: a clue that is clear to one is ambiguous to another)."""
        if self.skill.taste <= 0:
            return 0.0
        return random.Random(f"{self._taste_seed}/{card}").gauss(0.0, self.skill.taste)

    def act(self, view: PlayerView) -> BotCommand | None:
        legal, player = view.legal, view.viewer
        if player is None or not legal:
            return None
        if legal.give_clue:
            card, clue = self.tell(view)
            return GiveClue(player, card, clue[: legal.max_clue_length])
        clue = view.clue or ""
        if legal.submit:
            return SubmitCards(player, self.decoys(clue, legal.submit, legal.submit_count))
        if view.rules.everyone_votes:
            return self.party_move(view)
        if legal.vote_count > 1:
            first, second = self.two_votes(clue, legal.vote, view.rules.single_vote_bonus)
            return CastVote(player, first, second)
        return CastVote(player, self.listen(clue, legal.vote))

    def two_votes(self, clue: str, cards: tuple[str, ...], bonus: int) -> tuple[str, str | None]:
        """The vote, and a second one when it pays: its card's chance of being the storyteller's,
        times what finding scores, beats what it costs if the first vote is right: the
        single-vote bonus, and the point the second card's owner, a rival, gets."""
        first = self.listen(clue, cards)
        rest = [c for c in cards if c != first]
        if not rest:
            return first, None
        fits = self.book.fit(clue, [first, *rest], self.skill.reading)
        top = max(fits)
        if top <= 0:
            return first, None
        weights = [math.exp((f / top - 1.0) / BELIEF_NOISE) for f in fits]
        best = max(range(1, len(weights)), key=lambda i: weights[i])
        total = sum(weights)
        if SOME_POINTS * weights[best] / total > (bonus + GIVEN) * weights[0] / total:
            return first, rest[best - 1]
        return first, None

    def party_move(self, view: PlayerView) -> BotCommand:
        """Party play: vote where the others will (the card that best fits the clue); as the
        storyteller, void that crowded card first and vote for the next best."""
        legal, player, clue = view.legal, view.viewer, view.clue or ""
        assert player is not None
        if legal.void:
            return VoidCard(player, self.rank(clue, legal.void)[0])
        ranked = self.rank(clue, legal.vote)
        if view.my_void is not None:
            return CastVote(player, next(c for c in ranked if c != view.my_void))
        return CastVote(player, self.listen(clue, legal.vote))

    # -- listener ------------------------------------------------------------------------------
    def rank(self, clue: str, cards: tuple[str, ...] | list[str]) -> list[str]:
        """The cards, best fit to ``clue`` first (unknown cards last, in random order)."""
        fits = self.book.fit(clue, list(cards), self.skill.reading)
        jitter = [self.rng.random() * 1e-6 for _ in cards]
        order = sorted(range(len(cards)), key=lambda i: fits[i] + jitter[i], reverse=True)
        return [cards[i] for i in order]

    def listen(self, clue: str, cards: tuple[str, ...]) -> str:
        fits = self.book.fit(clue, list(cards), self.skill.reading)
        top = max(fits)
        if top > 0 and self.skill.taste > 0:
            fits = [max(f / top + self.taste(c), 0.0) for f, c in zip(fits, cards, strict=True)]
        return cards[_softmax_pick(self.rng, fits, self.skill.vote_noise)]

    # -- decoy ---------------------------------------------------------------------------------
    def decoys(self, clue: str, hand: tuple[str, ...], count: int) -> tuple[str, ...]:
        fits = self.book.fit(clue, list(hand), self.skill.reading)
        left = list(range(len(hand)))
        chosen: list[str] = []
        for _ in range(count):
            k = _softmax_pick(self.rng, [fits[i] for i in left], self.skill.decoy_noise)
            chosen.append(hand[left.pop(k)])
        return tuple(chosen)

    # -- storyteller ---------------------------------------------------------------------------
    def offered(self, card: str) -> list[tuple[str, str, str]]:
        """(clue, kind, anchor) the card offers in the room's language: its bank; for a card
        without one (an imported deck with captions), its title and themes (no anchor). A
        card's own title and themes are not told when it has a bank: they may name the story
        it illustrates."""
        bank = [(b.clue, b.kind, b.anchor) for b in self.book.bank(card, self.lang)]
        return bank or [(p, TEXT_KINDS[k], "") for k, p in self.book.phrases(card, self.lang)]

    def candidates(self, card: str, said: AbstractSet[str] = frozenset()) -> list[Candidate]:
        """The clues :meth:`offered` for one card, but none already ``said`` in the game, none
        told for this card in an earlier round the book has learnt (the same card gets a new
        clue next game), none a label."""
        labels = self.book.labels(card, self.lang)
        shown = self.book.shown(card, self.lang)
        seen = set(said) | {said_key(c) for c in self.book.clues(card, self.lang)}
        out: list[Candidate] = []
        for phrase, kind, anchor in self.offered(card):
            key = said_key(phrase)
            fresh = key and key not in seen and len(phrase) <= MAX_CLUE
            if fresh and not is_label(phrase, labels, self.lang):
                seen.add(key)
                plain = plainness(phrase, shown, self.lang)
                out.append(Candidate(phrase.strip(), kind, plain, anchor))
        return out

    def tell(self, view: PlayerView) -> tuple[str, str]:
        hand = list(view.legal.give_clue)  # in team play, the partner's cards too
        teams = view.rules.team_size > 1
        players = len(view.players) // view.rules.team_size  # a team listens as one
        seen = set(hand) | {c for r in view.rounds for c in r.table}
        readers = people = None
        if view.viewer is not None and not teams:
            others = [p for p in view.players if p != view.viewer]
            if self.skill.adapts:
                readers = reliabilities(view, others)
            present = self.people()
            people = [p in present for p in others]
        said = {said_key(r.clue) for r in view.rounds}
        mine = [r for r in view.rounds if r.storyteller == view.viewer][-2:]
        if people is not None and any(people):  # people hear every clue: vary across the table
            mine = list(view.rounds[-TABLE_STYLES:])
        recent = [self.kind_told(r.storyteller_card, r.clue) for r in mine]
        per_player = view.rules.cards_each_for(len(view.players))
        votes = view.rules.votes_each_for(len(view.players))
        return self.choose_clue(
            hand, players, per_player, seen, readers, said, recent, votes, people=people
        )

    def kind_told(self, card: str, clue: str) -> str | None:
        """The kind of a clue told for ``card`` (None if the card does not offer it)."""
        key = said_key(clue)
        return next((k for phrase, k, _ in self.offered(card) if said_key(phrase) == key), None)

    def choose_clue(
        self,
        hand: list[str],
        players: int,
        per_player: int,
        seen: set[str],
        readers: list[float] | None = None,
        said: AbstractSet[str] = frozenset(),
        recent: list[str | None] | None = None,
        votes: int = 1,
        *,
        people: Sequence[bool] | None = None,
    ) -> tuple[str, str]:
        """A card of ``hand`` and a clue for it in the room's language.

        ``seen``: cards this player has seen (its hand, past tables); the other players' cards
        are imagined from the rest of the book's cards of the same decks as the hand.
        ``readers``: for each other player, how reliably they read (1: like this bot's model,
        0: at random); unknown players count as :data:`PRIOR_READER`. ``said``: clues already
        told in the game (as :func:`said_key`); ``recent``: the kinds of this player's last clues;
        ``votes``: how many votes each listener has (two at a big Odyssey table); ``people``:
        for each other player, whether it is a person (read as a picture reader) or a computer
        (read as a computer listener reads); none known: all computers. Facing people it tells
        no one-word clue (while it has another) and leans by :func:`people_taste`.
        """
        skill = self.skill
        known = [c for c in hand if self.book.knows(c)]
        if not known:  # no text for any card: a card at random, a word of our own vocabulary
            return self.rng.choice(hand), self.rng.choice(words_for(self.lang))
        cards = self.rng.sample(known, min(skill.tell_cards, len(known)))
        options: list[tuple[str, Candidate]] = []
        for card in cards:
            found = self.candidates(card, said)
            if len(found) > skill.tell_clues:
                found = self.rng.sample(found, skill.tell_clues)
            options.extend((card, c) for c in found)
        if people is not None and any(people):  # people rated one-word clues low (2.95)
            options = [(card, c) for card, c in options if len(c.clue.split()) > 1] or options
        if not options:
            return self.rng.choice(hand), self.rng.choice(words_for(self.lang))
        if skill.tables <= 0:
            card, chosen = self.rng.choice(options)
            return card, chosen.clue
        decks = {deck_of(c) for c in hand}
        pool = [c for c in self.book.ids if c not in seen and deck_of(c) in decks]
        if len(pool) < HAND:
            pool = [c for c in self.book.ids if c not in hand]
        trust = np.array(readers if readers is not None else [PRIOR_READER] * (players - 1))
        humans = np.array(people if people is not None else [False] * len(trust), dtype=bool)
        seed = self.rng.getrandbits(32)  # the same imagined tables for every candidate
        used = [k for k in recent or [] if k]
        facing = float(humans.mean()) if humans.any() else 0.0  # the share of people
        scored = [
            (
                self.success(card, c, pool, trust, per_player, seed, votes, humans)
                - STYLE_REPEAT * used.count(c.kind)
                - PLAINNESS * max(0.0, c.plain - 0.5)
                + skill.kind_taste.get(c.kind, 0.0)
                + facing * people_taste(c)
                + VARIETY * self.rng.random(),
                self.rng.random(),
                card,
                c.clue,
            )
            for card, c in options
        ]
        best = max(scored)
        return best[2], best[3]

    def success(
        self, card: str, candidate: Candidate, pool: list[str],
        readers: npt.NDArray[np.float64], per_player: int, seed: int, votes: int = 1,
        people: npt.NDArray[np.bool_] | None = None,
    ) -> float:  # fmt: skip
        """Estimated chance that some but not all of the other players find ``card``.

        Each computer listener ``i`` reads with probability ``readers[i]`` and otherwise votes
        at random; decoys are the best fits of random hands. A computer listener reads what the
        pictures show (the skill's ``predicts_with``); a person (``people[i]``) as the panel's
        picture readers did (:func:`picture_readers`, which holds their misses: ``readers`` does
        not apply): a clue acted out by the only card that shows its anchor is found more
        often, a clue with rival cards less. With two ``votes`` a listener finds the card with
        either (a second vote drawn like the first from the cards left), so a clue must be
        harder to be found by some.
        """
        skill = self.skill
        others = len(readers)
        # Sloppier readers at the table also read less sharply when they do read.
        noise = skill.model_noise + SLOPPY_NOISE * (1.0 - float(readers.mean()) if others else 0.0)
        at = self.book.positions([card, *pool])
        fits = self.book.fit_all(candidate.clue, skill.predicts_with)[at]
        top = float(fits.max())
        if top <= 0 or others < 1:
            return 0.0
        fits = fits / top
        mine, rest = fits[0], fits[1:]
        if not len(rest):  # no other card to imagine: every reader would find it
            return 0.0
        gen = np.random.default_rng(seed)
        hand = min(HAND, len(rest))
        draws = gen.integers(0, len(rest), size=(skill.tables, others, hand))
        hands = rest[draws]  # (tables, others, hand)
        noisy = hands + gen.gumbel(size=hands.shape) * noise
        order = np.argsort(-noisy, axis=2)[:, :, :per_player]
        decoys = np.take_along_axis(hands, order, axis=2)  # (tables, others, per_player)
        top_of = np.maximum(np.maximum(decoys.max(axis=(1, 2)), mine), 1e-9)  # as listeners see it
        w_mine = np.exp((mine / top_of - 1.0) / noise)  # (tables,)
        w_decoys = np.exp((decoys / top_of[:, None, None] - 1.0) / noise)
        total = w_mine + w_decoys.sum(axis=(1, 2))
        # Each listener votes among the table less its own card(s).
        listens = total[:, None] - w_decoys.sum(axis=2)  # (tables, others)
        p = w_mine[:, None] / listens
        choices = 1 + (others - 1) * per_player
        chance = 1.0 / choices
        if votes > 1:  # or the second vote, after a first one on decoy j: p + sum_j p_j w/(T-w_j)
            flat = w_decoys.reshape(len(w_decoys), -1)  # (tables, every decoy)
            own = np.repeat(np.eye(others, dtype=bool), per_player, axis=1)  # (others, decoys)
            firsts = flat[:, None, :] / listens[:, :, None]  # (tables, others, decoys)
            seconds = w_mine[:, None, None] / (listens[:, :, None] - flat[:, None, :])
            p = p + np.where(own[None], 0.0, firsts * seconds).sum(axis=2)
            chance = min(1.0, 2.0 / choices)
        if people is not None and people.any():
            # The person model reads as it was fitted: what the pictures show, clue words in
            # the clue's language (SEEN), whatever reading predicts the computers.
            decoy_ids = np.take_along_axis(draws, order, axis=2)  # (tables, others, per_player)
            said = (mine, decoys)
            if skill.predicts_with != SEEN:
                seen = self.book.fit_all(candidate.clue, SEEN)[at]
                seen = seen / max(float(seen.max()), 1e-9)
                said = (float(seen[0]), seen[1:][decoy_ids])
            shows = self.book.fit_all(candidate.anchor or candidate.clue, SEEN)[at]
            shown = (float(shows[0]), shows[1:][decoy_ids])
            prior = PICTURE_READER.prior(candidate.clue, candidate.kind)
            person = picture_readers(said, shown, votes, prior)
            p = np.where(people[None, :], person, p)
            # The person model is fitted on what people did, their misses included: a person's
            # record is not held against the computer listeners' accuracy.
            readers = np.where(people, 1.0, readers)
        each = readers[None, :] * p + (1.0 - readers[None, :]) * chance
        some = 1.0 - each.prod(axis=1) - (1.0 - each).prod(axis=1)
        return float(some.mean())


def _best_elsewhere(seats: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For each seat of each table (``seats``: tables x seats), the best value among the other
    seats (0 when there is none)."""
    if seats.shape[1] < 2:
        return np.zeros_like(seats)
    order = np.argsort(-seats, axis=1)
    first = np.take_along_axis(seats, order[:, :1], axis=1)
    second = np.take_along_axis(seats, order[:, 1:2], axis=1)
    return np.where(np.arange(seats.shape[1])[None, :] == order[:, :1], second, first)


def picture_readers(
    clue: tuple[float, npt.NDArray[np.float64]],
    anchor: tuple[float, npt.NDArray[np.float64]],
    votes: int = 1,
    prior: float = PICTURE_READER.bias,
) -> npt.NDArray[np.float64]:
    """The chance that a person finds the card, for each listener of each imagined table.

    ``clue`` and ``anchor``: how well the storyteller's card fits the clue (and shows the thing
    the clue hangs on), and the same for every decoy (tables x seats x cards each); ``prior``:
    the clue's own part (:meth:`PictureReader.prior`). A person sees every card but its own;
    the margins of the card over the best other one and the rivals it has go through
    :data:`PICTURE_READER`. Two votes: either may find it.
    """
    model = PICTURE_READER
    logit = np.full(clue[1].shape[:2], prior)
    for (mine, decoys), weight in zip((clue, anchor), (model.clue, model.anchor), strict=True):
        best = _best_elsewhere(decoys.max(axis=2))
        margin = (mine - best) / np.maximum(np.maximum(mine, best), 1e-9)
        logit += weight * np.maximum(margin, MARGIN_FLOOR)
    near = (clue[1] >= RIVAL * clue[0]).sum(axis=2)  # (tables, seats)
    logit += model.rivals * rivals(near.sum(axis=1, keepdims=True) - near)
    found: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-logit))
    return 1.0 - (1.0 - found) ** votes if votes > 1 else found
