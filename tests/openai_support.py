"""A request to a scripted OpenAI stand-in, as its clients send one; shared by
test_chat_completions, test_responses_api and test_openai_api."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from amplifier_hooks.testing.openai_api import OpenAIServer


async def post(
    http: aiohttp.ClientSession,
    model: OpenAIServer,
    body: Any,
    *,
    key: str | None = None,
    path: str | None = None,
) -> tuple[int, Any]:
    """POST ``body`` to ``path`` (default: the model's endpoint under ``/v1``) with the
    model's key (or ``key``); the status, and the JSON body or the event stream's text."""
    headers = {"Authorization": f"Bearer {model.api_key if key is None else key}"}
    url = model.base_url + (path or "/v1" + model.endpoint)
    async with http.post(url, json=body, headers=headers) as response:
        text = await response.text()
        if response.content_type == "text/event-stream":
            return response.status, text
        return response.status, json.loads(text)
