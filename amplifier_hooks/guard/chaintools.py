"""The smart-contract developer's tools (Foundry's forge and cast, Hardhat, The Graph's
CLI, Goldsky, web3.storage's w3, IPFS), read for what reaches a real network.

A transaction sent to a public chain (``cast send``, ``forge script --broadcast``,
``npx hardhat run deploy.ts --network mainnet``) moves funds or changes a contract for
good, and a signature (``cast wallet sign`` of a permit) spends them later: both are
marked `TRANSACTION`. The same call aimed at the person's own node (anvil or Hardhat's
node at localhost) is everyday testing and gets no mark: an RPC URL naming localhost,
127.0.0.1 or ``[::1]``, Hardhat's ``hardhat``/``localhost`` networks. Where no RPC URL is
given, forge and cast use the local node unless ``ETH_RPC_URL`` says otherwise, so the
call is marked only when it signs with a real wallet (``--account``, a keystore, a
hardware wallet, a key from a variable; anvil's published test keys are literals).

A command that prints a wallet's private key (``cast wallet private-key``,
``decrypt-keystore``, ``derive-private-key``, ``hardhat vars get``) is marked
`KEY_PRINT` (Hardhat 3's ``keystore get`` too); one that publishes a subgraph, a Solidity
package, a contract's source or files to IPFS (``graph deploy`` to a hosted node,
``goldsky subgraph deploy``, ``forge soldeer push``, ``forge verify-contract`` and
``hardhat verify``, which publish the source on an explorer, ``w3 up``, ``ipfs pin remote
add``) `PUBLISH`; ``cast wallet remove`` deletes a keystore, and with it the only copy of
a key the person may hold: `WALLET_REMOVE`. A signature made with a key written out in
the command (anvil's published test keys) signs for no one's funds.

`chain_values` names the words of these calls that are no paths: an RPC URL
(``--rpc-url $MAINNET_RPC_URL``), and cast's addresses, slots and hashes given in a
variable (``cast storage $PROXY SLOT``), so that they are not read as files written.
"""

from __future__ import annotations

import re

from amplifier_hooks.guard.gitlibraries import LIBRARY_FROM_GIT, forge_library_unknown
from amplifier_hooks.guard.marking import mark_each
from amplifier_hooks.guard.model import Piece
from amplifier_hooks.guard.runners import RUNNERS, runner_split

__all__ = ["CHAIN_PROGRAMS", "KEY_PRINT", "PUBLISH", "TRANSACTION", "WALLET_REMOVE", "chain_act",
           "chain_values", "mark_chain_calls"]  # fmt: skip

TRANSACTION = "@chain-transaction"
KEY_PRINT = "@chain-key-print"
PUBLISH = "@chain-publish"
WALLET_REMOVE = "@chain-wallet-remove"

_RPC = frozenset({"--rpc-url", "--fork-url", "--eth-rpc-url"})
_SHORT_RPC = {"cast": "-r", "forge": "-f", "anvil": "-f"}
"""The options whose value is a node's URL (forge's and anvil's ``-f``, cast's ``-r``;
``ipfs add -r`` is recursive)."""
_WALLETS = frozenset({"--account", "--keystore", "--ledger", "-l", "--trezor", "-t", "--aws",
                      "--gcp", "--mnemonic", "--mnemonic-path", "--interactive", "-i"})  # fmt: skip
"""Options that sign with the person's own wallet (not anvil's published test keys)."""
_LOCAL = re.compile(r"^(?:(?:https?|wss?)://)?(?:localhost|127(?:\.\d+){3}|\[::1\]|0\.0\.0\.0)"
                    r"(?::\d+)?(?:/.*)?$", re.IGNORECASE)  # fmt: skip
_LOCAL_NETWORKS = frozenset({"hardhat", "localhost"})
_HARDHAT_LOCAL_TASKS = frozenset({"compile", "clean", "flatten", "help", "check", "vars",
                                  "typechain", "size-contracts", "node", "coverage"})  # fmt: skip
"""Hardhat's tasks that never send a transaction, whatever network is named."""
_CAST_SENDS = frozenset({"send", "s", "publish", "p"})
_RAW_SENDS = frozenset({"eth_sendrawtransaction", "eth_sendtransaction", "eth_sign",
                        "personal_sendtransaction", "eth_signtypeddata_v4"})  # fmt: skip
_KEY_PRINTS = frozenset({"private-key", "pk", "decrypt-keystore", "dk", "derive-private-key",
                         "derive-pk", "--derive-private-key"})  # fmt: skip
_W3 = frozenset({"w3", "@web3-storage/w3cli", "w3cli", "storacha", "@storacha/cli"})
CHAIN_PROGRAMS = frozenset({"forge", "cast", "hardhat", "truffle", "graph", "goldsky", "ipfs",
                            "pinata", *_W3})  # fmt: skip
_TRUFFLE_LOCAL = frozenset({"development", "develop", "localhost", "ganache", "test", "hardhat"})
"""Truffle's networks of the person's own node (its built-in ``develop`` chain, ganache)."""
_TRUFFLE_SENDS = frozenset({"migrate", "deploy", "exec", "run"})
_NODE_CHANGES = ("debug_set", "hardhat_", "anvil_", "evm_", "admin_", "miner_")
"""A node's own methods that change its chain or state (rewind, reset, mine, set a
balance): on another machine's node (a shared devnet, staging) everyone's chain moves."""
_RUN = CHAIN_PROGRAMS | RUNNERS
_VAR = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")
_PATH_VARS = re.compile(r"^(?:HOME|PWD|OLDPWD|TMPDIR|.*_(?:DIR|PATH|FILE|HOME|ROOT))$")


def mark_chain_calls(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each call of a smart-contract tool marked by what it does (the same
    tuple when none is)."""
    return mark_each(pieces, _RUN, _mark_at)


def _mark_at(pieces: tuple[Piece, ...], index: int) -> tuple[str, ...]:
    piece = pieces[index]
    act = chain_act(piece.program or "", piece.args, piece.env)
    return (act,) if act else ()


def chain_act(program: str, args: tuple[str, ...], env: tuple[str, ...] = ()) -> str | None:
    """The mark of ``program args`` (run with ``env``): `TRANSACTION`, `KEY_PRINT`,
    `PUBLISH`, `gitlibraries.LIBRARY_FROM_GIT` (forge install), or None (a read, a build,
    a test, local work, or another program)."""
    if program in RUNNERS:  # `npx hardhat run ...`, `pnpm exec hardhat`, `npx w3 up`
        split = runner_split(program, args)
        if split is None:
            if program not in ("pnpm", "yarn") or not args:
                return None
            split = ((), args[0], args[1:])  # `pnpm hardhat run`: the project's program
        name = split[1]
        program = name[: name.index("@", 1)] if "@" in name[1:] else name  # hardhat@2
        args = split[2]
    if "--help" in args or "-h" in args:
        return None
    words = _words(args)
    if program == "cast":
        return _cast(words, args, env)
    if program == "forge":
        return _forge(words, args, env)
    if program == "hardhat":
        return _hardhat(words, args, env)
    if program == "truffle":  # `truffle migrate --network mainnet`
        network = _value(args, ("--network",))
        sends = words[:1] and words[0] in _TRUFFLE_SENDS
        return TRANSACTION if sends and network and network not in _TRUFFLE_LOCAL else None
    if program == "graph":
        sub = words[:1]
        if sub == ["publish"] or (sub == ["deploy"] and not _local_value(args, "--node", "-g")):
            return PUBLISH
        return None
    if program == "goldsky":
        return PUBLISH if words[:2] == ["subgraph", "deploy"] else None
    if program == "ipfs":
        return PUBLISH if words[:3] == ["pin", "remote", "add"] else None
    if program == "pinata" or program in _W3:
        return PUBLISH if words[:1] in (["up"], ["upload"]) else None
    return None


def _cast(words: list[str], args: tuple[str, ...], env: tuple[str, ...]) -> str | None:
    sub = words[:1]
    if words[:1] == ["wallet"] and len(words) > 1:
        if words[1] in _KEY_PRINTS:
            return KEY_PRINT
        if words[1] in ("sign", "sign-auth"):  # a permit or an authorization spends later
            return None if _test_key_only(args) else TRANSACTION
        if words[1] in ("remove", "rm"):
            return WALLET_REMOVE
        return None
    method = _rpc_method(args) if sub == ["rpc"] else ""
    if method and (method in _RAW_SENDS or method.startswith(_NODE_CHANGES)):
        return None if _local_node("cast", args, env) else TRANSACTION
    if sub and sub[0] in _CAST_SENDS:
        return None if _local_node("cast", args, env) else TRANSACTION
    return None


def _forge(words: list[str], args: tuple[str, ...], env: tuple[str, ...]) -> str | None:
    sub = words[:1]
    if words[:2] == ["soldeer", "push"] or sub == ["verify-contract"]:
        return PUBLISH
    if sub and sub[0] in ("install", "i", "add") and forge_library_unknown(args[1:]):
        return LIBRARY_FROM_GIT
    if sub == ["create"] or (sub == ["script"] and ("--broadcast" in args or "--resume" in args)):
        return None if _local_node("forge", args, env) else TRANSACTION
    return None


def _hardhat(words: list[str], args: tuple[str, ...], env: tuple[str, ...]) -> str | None:
    if words[:2] in (["vars", "get"], ["keystore", "get"]):
        return KEY_PRINT
    if words[:1] == ["verify"] or words[:2] == ["ignition", "verify"]:
        return PUBLISH
    if words[:1] and words[0] in _HARDHAT_LOCAL_TASKS:
        return None
    network = _value(args, ("--network",))
    if network is None:
        network = next((e.partition("=")[2] for e in reversed(env)
                        if e.startswith("HARDHAT_NETWORK=")), None)  # fmt: skip
    if network is None or network.lower() in _LOCAL_NETWORKS:
        return None
    return TRANSACTION


def _test_key_only(args: tuple[str, ...]) -> bool:
    """Whether a signature is made with a key written out in the command (anvil's published
    test keys are), not the person's wallet (an account, a keystore, a key in a variable)."""
    literal = False
    for index, arg in enumerate(args):
        name, _, value = arg.partition("=")
        if name in _WALLETS:
            return False
        if name == "--private-key":
            key = value or _at(args, index + 1)
            if "$" in key or not key:
                return False
            literal = True
    return literal


def _rpc_options(program: str) -> frozenset[str]:
    short = _SHORT_RPC.get(program)
    return _RPC | {short} if short else _RPC


def _local_node(program: str, args: tuple[str, ...], env: tuple[str, ...]) -> bool:
    """Whether the call's node is the person's own (see the module)."""
    url = _value(args, _rpc_options(program))
    if url is None:
        url = next((e.partition("=")[2] for e in reversed(env)
                    if e.startswith("ETH_RPC_URL=")), None)  # fmt: skip
    if url is not None:
        return bool(_LOCAL.match(url))
    for index, arg in enumerate(args):
        name = arg.partition("=")[0]
        if name in _WALLETS:
            return False
        if name == "--private-key" and "$" in (arg.partition("=")[2] or _at(args, index + 1)):
            return False  # a key from the environment (anvil's are written out)
    return True


def _local_value(args: tuple[str, ...], *names: str) -> bool:
    value = _value(args, names)
    return value is not None and bool(_LOCAL.match(value))


def _value(args: tuple[str, ...], names: tuple[str, ...] | frozenset[str]) -> str | None:
    """The last value given to one of the options ``names`` (``--x V`` or ``--x=V``)."""
    found = None
    for index, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if name in names:
            found = value if equals else _at(args, index + 1)
    return found


def _at(args: tuple[str, ...], index: int) -> str:
    return args[index] if index < len(args) else ""


def _rpc_method(args: tuple[str, ...]) -> str:
    """The method ``cast rpc`` calls: its first word that is no option nor a node's URL
    (``cast rpc --rpc-url URL debug_setHead 0x1``)."""
    rest = iter(args[1:])
    for arg in rest:
        if arg in _RPC or arg == "-r":
            next(rest, None)
        elif not arg.startswith("-"):
            return arg.lower()
    return ""


def _words(args: tuple[str, ...]) -> list[str]:
    """The leading words that are no options (the subcommand's path)."""
    words: list[str] = []
    for arg in args:
        if arg.startswith("-"):
            break
        words.append(arg)
    return words


def chain_values(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The words of ``program args`` that name no path (see the module)."""
    values: list[str] = []
    rpc = _rpc_options(program)
    for index, arg in enumerate(args):
        name = arg.partition("=")[0]
        if name in rpc and "=" not in arg and index + 1 < len(args):
            values.append(args[index + 1])
        elif program == "cast" and not arg.startswith("-"):
            variable = _VAR.match(arg)
            if variable is not None and not _PATH_VARS.match(variable.group(1)):
                values.append(arg)  # `cast storage $PROXY`: an address, not a file
    return tuple(values)
