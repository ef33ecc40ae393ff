"""The commands that run something: the ``table``, the companion page (``web``), the
``selftest`` of the wiring, the ``bench`` and the boot partition's ``settings`` check."""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware.errors import UsageError
from firmware.saves.folder import state_dir


def run_table(args: argparse.Namespace) -> int:
    from firmware.app import run_table  # gpiozero and luma load only for the table

    return run_table(args)


def run_bench(args: argparse.Namespace) -> int:
    from firmware.tools import bench

    text = bench.run(quick=args.quick)
    print(text)
    if args.markdown:
        try:
            bench.write_markdown(Path(args.markdown), text)
        except OSError as error:
            raise UsageError(f"cannot write {args.markdown}: {error.strerror}") from None
        except ValueError as error:
            raise UsageError(str(error)) from None
        print(f"written into {args.markdown}")
    return 0


def run_selftest(args: argparse.Namespace) -> int:
    from firmware.tools.selftest import run_selftest

    return run_selftest(args)


def run_web(args: argparse.Namespace) -> int:
    from firmware.revision import on_raspberry_pi
    from firmware.web.serve import serve

    return serve(state_dir(args.state_dir, on_raspberry_pi()), args.config, args.host,
                 args.port)


def run_settings(args: argparse.Namespace) -> int:
    from firmware import boot_settings

    source = Path(args.source) if args.source else boot_settings.BOOT_FILE
    target = Path(args.target) if args.target else boot_settings.CONFIG
    refused = Path(args.refused) if args.refused else boot_settings.REFUSED
    outcome, said = boot_settings.settle(source, target, refused)
    print(f"robinson settings: {said}", flush=True)
    amplifier = boot_settings.amplifier_to_switch(target)
    if ((outcome is not None and outcome.changed) or amplifier) \
            and boot_settings.INSTALLED.exists():
        # A bundle's install: robinson-first-boot runs it again after this, for what the
        # new settings change beyond the config (the panel's bus, the voice, the port; the
        # amplifier a phone switched, whose overlay only the install writes).
        boot_settings.INSTALLED.unlink()
        print("robinson settings: the install runs again for "
              + ("the amplifier" if amplifier else "them"), flush=True)
    if outcome is not None and not outcome.taken:
        boot_settings.beep(target, outcome.line or 0)
        return 1
    return 0
