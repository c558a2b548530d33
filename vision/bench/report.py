"""The bench's figures as the lines ``pegpi bench recognition`` prints."""

from __future__ import annotations

from games.jsontypes import JSONObject
from vision.photo_changes import CHANGES


def report_lines(res: JSONObject) -> list[str]:
    """A short human reading of :func:`vision.bench.recognition.run_bench`'s result."""
    lines: list[str] = []
    lines.append(f"model {res['model']}: {res['model_bytes'] / 1e6:.2f} MB"
                 + (f", index network {res['index_model_bytes'] / 1e6:.2f} MB" if "index_model_bytes" in res else "")
                 + (f", suit network {res['suit_model_bytes'] / 1e6:.2f} MB" if "suit_model_bytes" in res else ""))
    h = res.get("heldout")
    if h is not None:
        of_pool = "" if res["pool"] == "bench" else f" of the {res['pool']} pool"
        lines.append(f"held-out designs ({h['designs']} decks{of_pool}, "
                     f"{h['crops']} crops): top-1 {h['top1']:.2%} ({h['mistakes']} wrong, {h['clubs_spades_twins']} of them "
                     f"clubs/spades twins; cards {h['top1_card']:.2%}, backs {h['top1_back']:.2%}, non-cards "
                     f"{h['top1_unknown']:.2%}); confident mistakes {h['confident_mistakes']:.3%} ({h['confident']})")
    if "framing" in res:
        fr = res["framing"]
        lines.append(f"held-out crops framed closer or further ({fr['crops']} at each): "
                     + ", ".join(f"x{k} {v['top1']:.2%} ({v['mistakes']} wrong, {v['confident_mistakes']:.3%} confident)"
                                 for k, v in fr["scales"].items()))
    if "loose" in res:
        lo = res["loose"]
        lines.append(f"loose photos of one card, any angle ({lo['photos']}): top-1 {lo['top1']:.2%}; "
                     f"confident mistakes {lo['confident_mistakes']:.2%}; {lo['median_ms_per_photo']:.0f} ms per photo")
        for name, ch in lo.get("changes", {}).items():
            sw = ch["clubs_spades_swapped"]
            lines.append(f"  the same photos {CHANGES[name][0]} ({name}): top-1 {ch['top1']:.2%}; confident mistakes "
                         f"{ch['confident']}{': ' + ', '.join(ch['confident_mistakes']) if ch['confident_mistakes'] else ''}; "
                         f"clubs and spades swapped {sw['count']} ({sw['confident']} confident)")
    if "index_only" in res:
        io = res["index_only"]
        lines.append(f"cards of which only the index shows ({io['crops']}), read from the index alone: top-1 {io['top1']:.2%} "
                     f"(row {io['top1_row']:.2%}, held fan {io['top1_held_fan']:.2%}), read at >= 0.9 {io['read_at_0.9']:.2%}; "
                     f"confident mistakes {io['confident_mistakes']:.2%}; whole-card reading {io['whole_card_top1']:.2%}")
    if "latency_ms" in res:
        lat = res["latency_ms"]
        lines.append(f"latency per card (1 thread): batch 1 {lat['batch1_median']:.3f} ms, batched {lat['batched64_median_per_card']:.3f} ms, "
                     f"classify() as the table pipeline crops {lat['classify_16_table_pipeline_crops_per_card']:.3f} ms, "
                     f"crops with table round them {lat['classify_16_crops_with_preprocessing_per_card']:.3f} ms"
                     + (f"; index alone (recognize) {lat['read_indices_16_crops_with_preprocessing_per_card']:.3f} ms"
                        if "read_indices_16_crops_with_preprocessing_per_card" in lat else ""))
    if "enrolment" in res:
        e = res["enrolment"]
        lines.append(f"enrolment ({e['deck']}, 1 view per card): top-1 {e['top1']:.2%} on {e['test_views']} new views; "
                     f"confident mistakes {e['confident_mistakes']:.2%}; "
                     f"French cards taken for enrolled {e['french_cards_taken_for_enrolled']:.2%}")
    if "recognize" in res:
        r = res["recognize"]
        lines.append(f"recognize ({r['photos']} photos, {r['cards']} cards): recall {r['recall']:.2%}, precision "
                     f"{r['precision']:.2%}, {r['median_seconds_per_photo']:.2f} s per photo; "
                     + ", ".join(f"{lay} {v['recall']:.0%}/{v['precision']:.0%}" for lay, v in r["by_layout"].items()))
        bi = r["rows_and_held_fans_by_index"]
        lines.append("  rows and held fans, recall by what shows of each card's corner index: "
                     + ", ".join(f"{k.replace('_', ' ')} {v['recall']:.1%} of {v['cards']}" for k, v in bi.items()))
    if h is not None:
        lines.append(f"worst confusions: {h['worst_confusions']}")
    if "commercial" in res:
        for name, d in res["commercial"]["decks"].items():
            if "error" in d:
                lines.append(f"commercial deck {name}: not read: {d['error']}")
                continue
            c, t, lo = d["clean"], d["table"], d["loose"]
            lines.append(f"commercial deck {name} ({d['faces']} faces, never trained on): clean {c['top1']:.2%}; "
                         f"table crops ({t['crops']}) top-1 {t['top1']:.2%} (courts {t['top1_courts']:.2%}), confident "
                         f"mistakes {t['confident_mistakes']:.2%}; loose photos ({lo['photos']}) top-1 {lo['top1']:.2%}, "
                         f"confident mistakes {lo['confident_mistakes']:.2%}")
            lines.append(f"  worst table confusions: {t['worst_confusions']}")
            for what, sw in (("table crops", t["clubs_spades_swapped"]), ("loose photos", lo["clubs_spades_swapped"])):
                lines.append(f"  {what}: clubs and spades swapped {sw['count']} ({sw['confident']} confident)")
            if "recognize" in d:
                r = d["recognize"]
                lay = ", ".join(f"{k} {v['recall']:.0%}/{v['precision']:.0%}" for k, v in r["by_layout"].items())
                lines.append(f"  recognize on {r['photos']} photos ({r['cards']} cards): recall {r['recall']:.1%}, "
                             f"precision {r['precision']:.1%} ({lay})")
    return lines
