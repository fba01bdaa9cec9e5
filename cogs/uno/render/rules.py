"""`/uno rules`: a one-screen guide per variant with the cards pictured, and the details.

Words only: the rule ids of docs/rules.md stay in the docs and the code.
"""

from __future__ import annotations

from typing import Final

from cogs.uno.i18n.l10n import N_, t
from cogs.uno.render.faces import card_emoji
from cogs.uno.render.rule_words import challenge_words
from cogs.uno.render.specs import CONTENT_LIMIT
from cogs.uno.render.words import clip, colour_emoji
from engine.cards import card

# (card shown, what it does), per variant: the special cards a player meets.
_SPECIALS: Final = {
    "duo": (
        ("RS", N_("Skip: you play again.")),
        ("GR", N_("Reverse: you may lay every other card of its colour at once "
                  "(the last one acts).")),
        ("Y+2", N_("Draw 2: your opponent stacks a Draw 2 back, or draws the whole total.")),
        ("W", N_("Wild: name the colour.")),
        ("W+4", N_("Wild Draw 4: name a colour; your opponent draws 4 or challenges, then you play "
         "again. Challenged, {rule}: a bluff costs you 4, a fair play costs them 6.")),
    ),
    "pizza": (
        ("RS", N_("Skip: the next player misses a turn.")),
        ("GR", N_("Reverse: play turns the other way (with 2 players, a Skip).")),
        ("Y+1", N_("Draw One: the next player draws 1 and misses a turn.")),
        ("W", N_("Wild: name the colour.")),
        ("W+2", N_("Wild Draw 2: name a colour; the next player draws 2 and misses a turn, or "
         "challenges. A bluff costs you 2; a fair play costs them 4.")),
        ("WDIP", N_("Wild Dip Into The Deck: name a colour, draw one, then give any card to the "
         "next player.")),
    ),
    "classic": (
        ("RS", N_("Skip: the next player misses a turn.")),
        ("GR", N_("Reverse: play turns the other way (with 2 players, a Skip).")),
        ("Y+2", N_("Draw 2: the next player draws 2 and misses a turn. No stacking.")),
        ("W", N_("Wild: name the colour.")),
        ("W+4", N_("Wild Draw 4: name a colour; the next player draws 4 and misses a turn, or "
         "challenges. Challenged, {rule}: a bluff costs you 4, a fair play costs them 6.")),
    ),
}  # fmt: skip

_TURN: Final = {
    "duo": (
        N_(
            "**UNO Duo**, 2 players. No deal: each of you drafts 7 cards, keeping or rejecting "
            "them one at a time (**Keep the rest** keeps the lot)."
        ),
        N_(
            "**Your turn:** play a card that matches the top card's colour, number or symbol, "
            "or any wild; or draw one (you may play it at once)."
        ),
        N_(
            "**Down to one card?** Play it with **· UNO!** or press **Call UNO**; caught first, "
            "you draw 2."
        ),
        N_(
            "**Winning:** out of cards ends the round; the other player scores their hand. "
            "Reach the target (200) and you **lose**: the lower total wins."
        ),
    ),
    "pizza": (
        N_("**UNO Pocket Pizza Pizza**, 2–5 players, 5 cards each."),
        N_(
            "**Your turn:** play a card that matches the top card's colour, number or symbol, "
            "or any wild; or draw one (you may play it at once)."
        ),
        N_(
            "**Down to one card?** Play your second-to-last with **· UNO!** or press **Call "
            "UNO**; caught first, you draw 2."
        ),
        N_(
            "**Winning:** out of cards wins the round and scores every other hand; the first to "
            "the target (250) wins."
        ),
    ),
    "classic": (
        N_("**Classic UNO**, 2–10 players, 7 cards each."),
        N_(
            "**Your turn:** play a card that matches the top card's colour, number or symbol, "
            "or any wild; or draw one (you may play it at once)."
        ),
        N_(
            "**Down to one card?** Play your second-to-last with **· UNO!** or press **Call "
            "UNO**; caught first, you draw 2."
        ),
        N_(
            "**Winning:** out of cards wins the round and scores every other hand; the first to "
            "the target (500) wins."
        ),
    ),
}

_DETAILS: Final = {
    "duo": (
        N_("**UNO Duo, the fine points** · 112 cards"),
        N_(
            "• Both players cut; the higher card takes the first role, and the roles swap every "
            "round. The other player plays first and carries out the first card's action."
        ),
        N_(
            "• Draft: look at the top card privately. Keep it (the next goes face up on the "
            "draft pile) or reject it (it goes face up) and keep the next one."
        ),
        N_("• A Draw 2 volley goes on while both stack; whoever stops draws the running total."),
        N_(
            "• After a Reverse you may lay every other card of its colour, in the order you "
            "choose; only the last one acts."
        ),
        N_("• Call UNO when your play leaves you one card, or with the play."),
        N_("• Empty draw pile: the discard pile, but its top card, becomes the draw pile."),
        N_("• Scores: numbers at face value, action cards 10, wilds 15, Wild Draw 4 20."),
        N_("• Missing three turns in a row, or leaving, forfeits the match."),
    ),
    "pizza": (
        N_("**UNO Pocket Pizza Pizza, the fine points** · 51 cards"),
        N_("• The dealer moves left each round; the player on the dealer's left starts."),
        N_(
            "• The first card turned acts on the first player (a Wild Draw 2 or Dip goes back "
            "into the deck)."
        ),
        N_("• Drawing is always allowed; no stacking of draw cards."),
        N_("• A failed challenge of a Wild Draw 2 also costs the challenger their turn."),
        N_("• Empty draw pile: the discard pile, but its top card, is shuffled into a new one."),
        N_("• Scores: numbers at face value, action cards 20, wilds 50."),
        N_("• Missing three turns in a row, or leaving, forfeits the match."),
    ),
    "classic": (
        N_("**Classic UNO, the fine points** · 108 cards"),
        N_("• The dealer moves left each round; the player on the dealer's left starts."),
        N_(
            "• The first card turned acts on the first player "
            "(a Wild Draw 4 goes back into the deck)."
        ),
        N_(
            "• Drawing is always allowed; no stacking of draw cards "
            "(unless the table plays stacking)."
        ),
        N_(
            "• A Wild Draw 4 may be played only when you hold no card of the colour in play; "
            "bluffing is allowed, and a failed challenge also costs the challenger their turn."
        ),
        N_("• UNO can be caught until the next player plays or draws."),
        N_("• Empty draw pile: the discard pile, but its top card, is shuffled into a new one."),
        N_("• Scores: numbers at face value, Skip, Reverse and Draw 2 20, wilds 50."),
        N_("• Missing three turns in a row, or leaving, forfeits the match."),
        "",
        N_(
            "**House rules** (a server's admins turn them on in /uno settings; the table shows "
            "the ones in play):"
        ),
        N_(
            "• Stacking: hit by a Draw 2, play a Draw 2 on it (a Wild Draw 4 on a Wild Draw 4) "
            "and pass the total on; whoever can't or won't stack draws it all and misses a turn. "
            "Only the first Wild Draw 4 of a stack can be challenged."
        ),
        N_(
            "• Seven-O: a 7 swaps your hand with a player you choose; a 0 passes every hand to "
            "the next player. Going out on a 7 or 0 just ends the round."
        ),
        N_(
            "• Jump-in: hold the exact card on top (same colour and number or symbol, not a "
            "wild)? Play it out of turn; play goes on from you."
        ),
        N_(
            "• Draw to match: drawing goes on until you draw a card you can play; "
            "play it or keep it."
        ),
    ),
}


def _known(variant: str) -> None:
    if variant not in _TURN:
        raise ValueError(f"unknown variant {variant!r}")


def _picture(code: str) -> str:
    shown = card(code)
    return card_emoji(shown) or colour_emoji(shown.colour)


def rules_guide(variant: str, *, classic_challenge: bool = False) -> str:
    """One screen: how a turn goes and what each special card does, the cards pictured.

    `classic_challenge`: the server plays Duo with the classic challenge (settings).
    """
    _known(variant)
    first, *rest = (t(line) for line in _TURN[variant])
    # The challenge in the words the settings panel uses (rule_words.py): classic
    # tables always play the classic one.
    rule = t(challenge_words(classic=classic_challenge or variant == "classic").counts)
    specials = [f"{_picture(code)} {t(words, rule=rule)}" for code, words in _SPECIALS[variant]]
    lines = [first, rest[0], "", t("**Special cards**"), *specials, "", *rest[1:]]
    return clip("\n".join(lines), CONTENT_LIMIT)


def rules_details(variant: str) -> str:
    """The fine points, for the guide's Details button."""
    _known(variant)
    # An empty line stays empty: t("") would be the catalogue's header.
    return clip("\n".join(t(line) if line else "" for line in _DETAILS[variant]), CONTENT_LIMIT)
