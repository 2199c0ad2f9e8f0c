"""Screens a person answers approvals on, and the providers that are screens.

`approval_screen` (the modal), `approval_app` (`TextualApprovalProvider`, `ApprovalApp`,
`run_with_approval_ui`), `console` (`ConsoleApprovalProvider`, for plain terminals) and
`providers` (`default_provider`: the provider a program gets when it does not pick one).
Built on `amplifier_hooks.approvals`; this ``__init__`` imports nothing, so a headless
agent never pays for Textual or Rich's prompts.
"""
