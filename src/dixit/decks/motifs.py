"""The curated motif table for the generated deck.

Every motif is an icon of Fluent Emoji Flat (MIT, (c) Microsoft). The table says what a motif
*can do* in a composition (its kinds); the icon bodies and the emojilib keywords live in
``catalog.json`` (see :mod:`dixit.decks.catalog`).

Kinds:

``creature``  an animal big enough to carry a scene (giant, silhouette, sky inside it)
``object``    a thing from daily life
``building``  a place to live or visit
``vessel``    something that travels
``plant``     a tree or flower
``figure``    a small person (drawn as a silhouette, so skin tones never matter)
``container`` a thing with glass that can hold a world
``glow``      a thing that can plausibly shine
``lifter``    a light thing that can carry something upward (balloons, butterflies, ...)
``housey``    an object with a shape that can be turned into a house
``sky``       a celestial thing
``swimmer``   a creature that may swim in the sky
``profile``   (derived) a creature whose silhouette is recognisable
``bearer``    a creature with a back broad enough to carry a building
``pourer``    a thing that can pour (a waterfall, a stream of stars)
``cup``       a thing that can hold a small sea
``instrument`` a musical instrument
``prop``      only ever a secondary motif (moon faces, notes, a storm cloud)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Motif:
    """One motif: its icon name (Fluent Emoji Flat) and what it can do."""

    name: str
    kinds: frozenset[str]

    @property
    def label(self) -> str:
        """Readable English name ("alarm clock")."""
        return LABELS.get(self.name, self.name.replace("-", " "))


_TABLE: dict[str, str] = {
    # creatures
    "whale": "creature swimmer",
    "spouting-whale": "creature swimmer",
    "elephant": "creature",
    "giraffe": "creature",
    "owl": "creature",
    "fox": "creature",
    "cat": "creature",
    "black-cat": "creature",
    "rabbit": "creature",
    "deer": "creature",
    "horse": "creature",
    "bear": "creature",
    "polar-bear": "creature",
    "turtle": "creature swimmer",
    "snail": "creature housey",
    "octopus": "creature swimmer",
    "jellyfish": "creature swimmer glow",
    "dolphin": "creature swimmer",
    "shark": "creature swimmer",
    "swan": "creature",
    "flamingo": "creature",
    "peacock": "creature",
    "penguin": "creature",
    "dodo": "creature",
    "mammoth": "creature",
    "sauropod": "creature",
    "t-rex": "creature",
    "dragon": "creature",
    "unicorn": "creature",
    "llama": "creature",
    "camel": "creature",
    "two-hump-camel": "creature",
    "zebra": "creature",
    "lion": "creature",
    "tiger": "creature",
    "wolf": "creature",
    "koala": "creature",
    "panda": "creature",
    "sloth": "creature",
    "hedgehog": "creature",
    "frog": "creature",
    "crocodile": "creature swimmer",
    "seal": "creature swimmer",
    "otter": "creature swimmer",
    "bison": "creature",
    "moose": "creature",
    "rhinoceros": "creature",
    "hippopotamus": "creature",
    "kangaroo": "creature",
    "goat": "creature",
    "ram": "creature",
    "ewe": "creature",
    "pig": "creature",
    "cow": "creature",
    "dog": "creature",
    "poodle": "creature",
    "monkey": "creature",
    "gorilla": "creature",
    "orangutan": "creature",
    "raccoon": "creature",
    "badger": "creature",
    "beaver": "creature",
    "skunk": "creature",
    "hamster": "creature",
    "mouse": "creature",
    "chipmunk": "creature",
    "parrot": "creature",
    "eagle": "creature",
    "dove": "creature lifter",
    "duck": "creature",
    "goose": "creature",
    "rooster": "creature",
    "phoenix-bird": "creature glow",
    "tropical-fish": "creature swimmer",
    "blowfish": "creature swimmer",
    "fish": "creature swimmer",
    "crab": "creature",
    "lobster": "creature",
    "squid": "creature swimmer",
    "spiral-shell": "object housey",
    "butterfly": "creature lifter",
    "honeybee": "creature",
    "lady-beetle": "creature",
    "snake": "creature",
    "lizard": "creature",
    "scorpion": "creature",
    "spider": "creature",
    "beetle": "creature",
    "bat": "creature",
    "turkey": "creature",
    "chicken": "creature",
    "bird": "creature lifter",
    "blackbird": "creature",
    "water-buffalo": "creature",
    "ox": "creature",
    "leopard": "creature",
    "boar": "creature",
    "donkey": "creature",
    # objects
    "alarm-clock": "object",
    "teapot": "object housey",
    "bell": "object",
    "key": "object",
    "old-key": "object",
    "umbrella": "object",
    "candle": "object glow",
    "light-bulb": "object glow container",
    "chair": "object",
    "hourglass-not-done": "object",
    "red-paper-lantern": "object glow lifter",
    "anchor": "object",
    "violin": "object",
    "guitar": "object",
    "trumpet": "object",
    "saxophone": "object",
    "crown": "object glow",
    "ring": "object glow",
    "gem-stone": "object glow",
    "crystal-ball": "object glow container",
    "magic-wand": "object glow",
    "teddy-bear": "object",
    "kite": "object",
    "balloon": "object lifter",
    "top-hat": "object housey",
    "compass": "object",
    "telescope": "object",
    "mirror": "object container",
    "jar": "object container",
    "bathtub": "object housey",
    "bed": "object",
    "books": "object housey",
    "open-book": "object glow",
    "scroll": "object",
    "envelope": "object",
    "hot-beverage": "object housey",
    "teacup-without-handle": "object housey",
    "basket": "object housey",
    "bucket": "object housey",
    "postbox": "object housey",
    "glasses": "object",
    "magnifying-glass-tilted-left": "object",
    "scissors": "object",
    "high-heeled-shoe": "object housey",
    "ballet-shoes": "object",
    "hiking-boot": "object housey",
    "womans-boot": "object housey",
    "watch": "object",
    "mantelpiece-clock": "object housey",
    "stopwatch": "object",
    "radio": "object housey",
    "television": "object housey glow",
    "telephone": "object",
    "camera": "object",
    "film-projector": "object",
    "amphora": "object housey",
    "sewing-needle": "object",
    "yarn": "object",
    "chess-pawn": "object",
    "game-die": "object housey",
    "puzzle-piece": "object",
    "mirror-ball": "object glow",
    "wind-chime": "object",
    "diya-lamp": "object glow",
    "bellhop-bell": "object",
    "birthday-cake": "object housey glow",
    "ice-cream": "object",
    "lollipop": "object",
    "mushroom": "plant housey",
    "red-apple": "object housey",
    "pear": "object housey",
    "strawberry": "object housey",
    "pineapple": "object housey",
    "watermelon": "object housey",
    "egg": "object housey",
    "cheese-wedge": "object housey",
    "croissant": "object",
    "doughnut": "object",
    "moon-cake": "object glow",
    "coconut": "object housey",
    "lemon": "object housey",
    "peach": "object",
    "cherries": "object",
    "grapes": "object",
    "honey-pot": "object housey glow",
    "jack-o-lantern": "object housey glow",
    "canned-food": "object housey",
    "accordion": "object",
    "drum": "object housey",
    "banjo": "object",
    "flashlight": "object glow",
    "microscope": "object",
    "postal-horn": "object",
    "wrapped-gift": "object housey",
    "nesting-dolls": "object",
    "carp-streamer": "object lifter",
    "feather": "object lifter",
    "leaf-fluttering-in-wind": "plant lifter",
    "maple-leaf": "plant lifter",
    "four-leaf-clover": "plant",
    "gear": "object",
    "magnet": "object",
    "hourglass-done": "object",
    "locked": "object",
    "paperclip": "object",
    "thread": "object",
    "paintbrush": "object",
    "fountain-pen": "object",
    # buildings and places
    "house": "building",
    "house-with-garden": "building",
    "castle": "building",
    "japanese-castle": "building",
    "classical-building": "building",
    "church": "building",
    "hut": "building",
    "tent": "building",
    "circus-tent": "building",
    "ferris-wheel": "building glow",
    "carousel-horse": "building",
    "derelict-house": "building",
    "hindu-temple": "building",
    "shinto-shrine": "building",
    "tokyo-tower": "building",
    "statue-of-liberty": "building",
    "moai": "building",
    "fountain": "building",
    "volcano": "building",
    "mosque": "building",
    "houses": "building",
    "roller-coaster": "building",
    # vessels
    "sailboat": "vessel",
    "canoe": "vessel",
    "ship": "vessel",
    "locomotive": "vessel",
    "rocket": "vessel",
    "flying-saucer": "vessel glow",
    "parachute": "vessel",
    "airplane": "vessel",
    "bicycle": "vessel",
    "aerial-tramway": "vessel",
    "ferry": "vessel",
    "passenger-ship": "vessel",
    "satellite": "vessel",
    "helicopter": "vessel",
    # plants
    "deciduous-tree": "plant",
    "evergreen-tree": "plant",
    "palm-tree": "plant",
    "cactus": "plant",
    "sunflower": "plant",
    "tulip": "plant",
    "rose": "plant",
    "cherry-blossom": "plant",
    "lotus": "plant glow",
    "seedling": "plant",
    "potted-plant": "plant",
    "hibiscus": "plant",
    "wilted-flower": "plant",
    "bouquet": "plant",
    "hyacinth": "plant",
    "tanabata-tree": "plant",
    "christmas-tree": "plant glow",
    # small figures (always drawn as silhouettes)
    "person-walking": "figure",
    "person-running": "figure",
    "person-standing": "figure",
    "person-rowing-boat": "figure",
    "person-in-lotus-position": "figure",
    "person-fairy": "figure",
    "ghost": "figure",
    "person-with-white-cane": "figure",
    "woman-dancing": "figure",
    "person-kneeling": "figure",
    "person-walking-facing-right": "figure",
    "person-running-facing-right": "figure",
    # sky things
    "ringed-planet": "sky glow",
    "comet": "sky glow",
    "star": "sky glow",
    "glowing-star": "sky glow",
    "cloud": "sky",
    "eye": "object",
    "anatomical-heart": "object",
    "footprints": "object",
    "hole": "object",
    # props (never a main motif)
    "first-quarter-moon-face": "prop",
    "last-quarter-moon-face": "prop",
    "sun-with-face": "prop",
    "zzz": "prop",
    "musical-note": "prop",
    "musical-notes": "prop",
    "cloud-with-lightning": "prop",
}

# Extra abilities of some motifs (added to their kinds above).
_EXTRA: dict[str, str] = {
    "bearer": "whale spouting-whale turtle elephant mammoth sauropod camel two-hump-camel "
    "hippopotamus rhinoceros bison water-buffalo ox cow crocodile shark dolphin t-rex dragon "
    "snail horse llama polar-bear bear",
    "pourer": "teapot teacup-without-handle hot-beverage amphora bucket honey-pot canned-food "
    "jar bathtub womans-boot top-hat spiral-shell coconut",
    "cup": "teacup-without-handle hot-beverage bathtub bucket basket jar hiking-boot "
    "womans-boot top-hat honey-pot canned-food spiral-shell amphora coconut drum",
    "instrument": "violin guitar trumpet saxophone accordion drum banjo postal-horn bell "
    "wind-chime",
}
for _kind, _names in _EXTRA.items():
    for _name in _names.split():
        _TABLE[_name] += " " + _kind

LABELS: dict[str, str] = {
    "glasses": "pair of glasses",
    "locked": "padlock",
    "yarn": "ball of yarn",
    "thread": "spool of thread",
    "gem-stone": "gemstone",
    "high-heeled-shoe": "high-heeled shoe",
    "christmas-tree": "Christmas tree",
    "statue-of-liberty": "Statue of Liberty",
    "scissors": "pair of scissors",
    "ballet-shoes": "pair of ballet shoes",
    "cherries": "pair of cherries",
    "grapes": "bunch of grapes",
    "books": "stack of books",
    "houses": "cluster of houses",
    "nesting-dolls": "set of nesting dolls",
    "footprints": "trail of footprints",
    "spouting-whale": "spouting whale",
    "two-hump-camel": "two-humped camel",
    "t-rex": "tyrannosaurus",
    "phoenix-bird": "phoenix",
    "hourglass-not-done": "hourglass",
    "hourglass-done": "empty hourglass",
    "red-paper-lantern": "paper lantern",
    "magnifying-glass-tilted-left": "magnifying glass",
    "womans-boot": "boot",
    "teacup-without-handle": "teacup",
    "hot-beverage": "steaming cup",
    "diya-lamp": "oil lamp",
    "leaf-fluttering-in-wind": "fluttering leaf",
    "house-with-garden": "house with a garden",
    "deciduous-tree": "tree",
    "evergreen-tree": "fir tree",
    "person-walking": "walking person",
    "person-running": "running person",
    "person-standing": "standing person",
    "person-rowing-boat": "rower",
    "person-in-lotus-position": "meditating person",
    "person-fairy": "fairy",
    "person-with-white-cane": "person with a cane",
    "woman-dancing": "dancer",
    "person-kneeling": "kneeling person",
    "person-walking-facing-right": "walking person",
    "person-running-facing-right": "running person",
    "ringed-planet": "ringed planet",
    "glowing-star": "glowing star",
    "canned-food": "tin can",
    "jack-o-lantern": "carved pumpkin",
    "moai": "stone head",
    "mirror-ball": "mirror ball",
    "game-die": "die",
    "carp-streamer": "carp streamer",
    "anatomical-heart": "heart",
    "first-quarter-moon-face": "sleeping moon",
    "last-quarter-moon-face": "sleeping moon",
    "sun-with-face": "little sun",
    "zzz": "snores",
    "musical-note": "musical note",
    "musical-notes": "musical notes",
    "cloud-with-lightning": "storm cloud",
    "aerial-tramway": "cable car",
    "flying-saucer": "flying saucer",
    "film-projector": "film projector",
    "derelict-house": "abandoned house",
    "tanabata-tree": "wishing tree",
}

# Creatures whose outline reads well as a silhouette (seen from the side, distinct shape).
_NOT_PROFILE = frozenset(
    [
        "orangutan",
        "gorilla",
        "koala",
        "panda",
        "sloth",
        "monkey",
        "hamster",
        "beaver",
        "badger",
        "skunk",
        "raccoon",
        "frog",
        "lion",
        "hedgehog",
        "crab",
        "lobster",
        "honeybee",
        "lady-beetle",
        "beetle",
        "spider",
        "butterfly",
        "jellyfish",
        "blowfish",
        "squid",
        "chipmunk",
        "otter",
        "seal",
        "bear",
        "polar-bear",
        "owl",
        "tiger",
        "octopus",
        "mouse",
        "pig",
        "cow",
        "bird",
        "fox",
        "rabbit",
        "wolf",
        "tropical-fish",
        "chicken",
        "boar",
    ]
)

MOTIFS: dict[str, Motif] = {
    name: Motif(
        name,
        frozenset(kinds.split())
        | (
            frozenset({"profile"})
            if "creature" in kinds and name not in _NOT_PROFILE
            else frozenset()
        ),
    )
    for name, kinds in _TABLE.items()
}


_IRREGULAR = {
    "mouse": "mice",
    "die": "dice",
    "tooth": "teeth",
    "goose": "geese",
    "fish": "fish",
    "leaf": "leaves",
    "ox": "oxen",
}
_COLLECTIVE = (
    "pair of ",
    "bunch of ",
    "stack of ",
    "set of ",
    "cluster of ",
    "trail of ",
    "ball of ",
    "spool of ",
)
_PLURALS = {
    "house with a garden": "houses with gardens",
    "Statue of Liberty": "Statues of Liberty",
    "volcano": "volcanoes",
    "cactus": "cacti",
}


def plural(label: str) -> str:
    """English plural of a motif label ("paper lanterns", "pairs of glasses", "mice")."""
    if label in _PLURALS:
        return _PLURALS[label]
    for prefix in _COLLECTIVE:
        if label.startswith(prefix):
            head = prefix.split()[0]
            return plural(head) + label[len(head) :]
    words = label.split()
    last = words[-1]
    if last in _IRREGULAR:
        last = _IRREGULAR[last]
    elif last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return " ".join([*words[:-1], last])


def motifs_of(kind: str) -> list[Motif]:
    """All motifs of a kind, in table order (stable)."""
    return [m for m in MOTIFS.values() if kind in m.kinds]
