"""`pegpi web` (serve the phone page over a replayed game: the real Session over an in-memory
store) and `pegpi bench web`."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(commands: Any, benches: Any) -> None:
    p = commands.add_parser(
        "web",
        help="serve the phone page for a replayed game (no camera): pegpi web --replay RECORD.json",
        description="Serve the phone page on this machine's network over a replayed game record: "
                    "phones watch it, pair with the code printed here, and fix it.",
    )
    p.add_argument("--replay", metavar="RECORD", help="a game record (JSON); default: a new game of cribbage")
    p.add_argument("--played", type=int, default=0, metavar="N", help="play the first N actions at once")
    p.add_argument("--step", type=float, default=0.0, metavar="SECONDS",
                   help="play the record's next action every SECONDS (a demo); 0: only by hand")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--threads", type=int, default=32, help="server threads: one per watching phone, and some")
    p.add_argument("--code", help="the pairing code (default: random, printed)")
    p.set_defaults(func=cmd_web)

    b = benches.add_parser("web", help="20 phones on Server-Sent Events: delivery latency and server memory")
    b.add_argument("--clients", type=int, default=20, help="phones watching at once (default 20)")
    b.add_argument("--updates", type=int, default=60, help="board changes to deliver (default 60)")
    b.add_argument("--json", action="store_true", help="print JSON")
    b.set_defaults(func=cmd_bench_web)


def cmd_web(args: argparse.Namespace) -> int:
    import threading

    from device.replay import ReplaySession
    from games.errors import PegpiError
    from web import create_app
    from web.serve import serve

    # the real Session over an in-memory store, fed the record's actions
    service = ReplaySession(args.replay, pairing_code=args.code, played=args.played)
    app = create_app(service=service)
    if args.step > 0:
        stop = threading.Event()

        def play_on() -> None:
            while not stop.wait(args.step) and service.steps_left:
                try:
                    service.step()
                except PegpiError as exc:  # a phone changed the game: the record no longer fits
                    print(f"pegpi web: the replay stops: {exc}")
                    return

        threading.Thread(target=play_on, daemon=True).start()
    from pegpi.banner import banner
    from web.netaddr import phone_urls

    print(banner("pegpi web", phone_urls(args.host, args.port), service.pairing_code)
          + (f"\n({service.steps_left} actions to replay)" if args.replay else ""), flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads)
    return 0


def cmd_bench_web(args: argparse.Namespace) -> int:
    from pegpi.webbench import run

    result = run(clients=args.clients, updates=args.updates)
    if args.json:
        print(json.dumps(result))
        return 0
    lat, rss = result["latency_ms"], result["server_rss_mb"]
    print(f"pegpi bench web: {result['clients']} SSE clients on loopback, {result['updates']} updates "
          f"({result['deliveries']} deliveries), the table's Session on {result['store']}")
    print(f"delivery latency  median {lat['median']:.2f} ms   p95 {lat['p95']:.2f} ms   max {lat['max']:.2f} ms")
    print(f"server memory     RSS {rss['after_updates']:.1f} MB with the clients "
          f"({rss['before_clients']:.1f} MB before they connected)")
    return 0
