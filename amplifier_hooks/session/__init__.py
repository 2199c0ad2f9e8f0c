"""The session: the `Coordinator` an agent runtime holds, and its parts.

`coordinator` (dispatch: emit, then approvals, then injection and messages), `outcome`
(what a dispatch returns), `observers`, `cleanups`, `capabilities` and `mount_points`.
Built on `amplifier_hooks.engine`, `amplifier_hooks.approvals` and
`amplifier_hooks.injection`; this ``__init__`` imports nothing.
"""
