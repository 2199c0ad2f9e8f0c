"""How agent CLIs reach a guarding session: the HTTP hook server and the command relay.

`http` answers hook calls posted to ``/<route>`` (``/claude-code``); `relay` is the
command hook's side (``amplifier-hooks claude-code hook``), which passes a call to a
running server over a local socket, starting one if needed; `routes` names the host
adapters by the route they answer. The server uses the relay's wire facts, never the
other way round. This ``__init__`` imports nothing.
"""
