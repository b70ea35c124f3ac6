"""Computer players. A bot sees only a :class:`~dixit.engine.PlayerView` and answers a command.

from dixit.bots import LEVELS, CardBook, make_bot
book = CardBook.from_cards(deck["cards"])
bot = make_bot("strong", rng=random.Random(1), lang="it", book=book)
command = bot.act(view)   # GiveClue | SubmitCards | CastVote | None
"""

from .base import Bot, BotCommand
from .cardbook import CardBook, Reading
from .levels import LEVELS, make_bot
from .random_bot import RandomBot
from .text import LANGS

__all__ = ["LANGS", "LEVELS", "Bot", "BotCommand", "CardBook", "RandomBot", "Reading", "make_bot"]
