"""The web UI in Debian's real Chromium (Playwright drives it): search, a pass page, a diagnosis
with its rewrite diff and passages, the diagnose form with its progress, a run's chart; no page
breaks its Content-Security-Policy. PASSWISE_SCREENSHOTS=DIR keeps a screenshot of each."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="needs Debian's chromium (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, web_server):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.csp_errors = []
    pg.on("console", lambda m: "Content Security Policy" in m.text and pg.csp_errors.append(m.text))
    pg.on("pageerror", lambda e: pg.csp_errors.append(str(e)))
    yield pg
    assert not pg.csp_errors, pg.csp_errors
    ctx.close()


def shot(page, name: str) -> None:
    folder = os.environ.get("PASSWISE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=False)


def test_search_shows_highlighted_hits_why_they_ranked_and_keeps_the_query_in_the_url(page, web_server):
    page.goto(web_server["url"] + "/search")
    page.fill("input[name=q]", "why is the vector width limited by contiguity")
    page.select_option("select[name=backend]", "cuda")
    page.click("button[type=submit]")
    page.wait_for_selector("li.hit")
    assert "q=why+is+the+vector+width" in page.url and "backend=cuda" in page.url
    first = page.locator("li.hit").first
    assert "Coalesce.cpp" in first.locator(".path").inner_text()
    assert "lexical" in first.locator(".why").inner_text()
    assert first.locator("td.linenos").count() == 1 and first.locator(".code span").count() > 5
    shot(page, "search")
    page.click("a[rel=next]")
    page.wait_for_selector("li.hit")
    assert "page=2" in page.url


def test_a_pass_page_shows_definition_symptoms_and_chunks(page, web_server):
    page.goto(web_server["url"] + "/passes")
    page.click("text=tritongpu-coalesce")
    page.wait_for_selector("#pass-name")
    assert page.inner_text("#pass-name").startswith("tritongpu-coalesce")
    assert "scalar-global-loads" in page.inner_text("#symptoms")
    assert page.locator(".hit .code").count() >= 1
    shot(page, "pass")


def test_a_diagnosis_shows_the_ladder_the_stage_diff_passages_and_the_rewrite_of_the_kernel(page, web_server):
    page.goto(f"{web_server['url']}/diagnoses/{web_server['diagnosis']}")
    assert "concluded" in page.inner_text("#verdict")
    diff = page.locator("#rewrite-diff")
    assert diff.locator("tr.changed, tr.added").count() >= 1
    assert "shifted_copy" in diff.inner_text()  # the user's own kernel, not a card's example
    assert "tl.multiple_of" in diff.locator("tr.changed td.r, tr.added td.r").all_inner_texts()[0]
    assert page.locator("#tier-4").count() == 1
    assert page.locator("table[id^=stage-] tr.changed, table[id^=stage-] tr.added").count() >= 1
    passages = page.locator("#passages .hit")
    assert passages.count() >= 1 and page.locator("#passages .hll").count() >= 1
    shot(page, "diagnosis")


def test_the_diagnose_form_queues_a_job_shows_progress_and_links_the_result(page, web_server):
    source = (web_server["kernels"] / "shifted" / "baseline.py").read_text()
    page.goto(web_server["url"] + "/diagnoses")
    page.select_option("select[name=task]", "shifted")
    page.select_option("select[name=max_tier]", "1")
    page.fill("textarea[name=source]", source + "\n# </textarea><script>alert('k')</script>\n")
    shot(page, "diagnose-form")
    page.click("#diagnose-form button[type=submit]")
    page.wait_for_selector("#job-state")
    page.wait_for_selector("#result", timeout=120_000)
    assert page.inner_text("#job-state") == "done"
    assert "tier 1 triage" in page.inner_text("#progress")
    page.click("#result")
    page.wait_for_selector("#verdict")
    assert "shifted" in page.title()


def test_a_run_shows_its_lineage_and_a_timing_chart(page, web_server):
    page.goto(f"{web_server['url']}/runs/{web_server['run_id']}")
    page.wait_for_selector("#run-chart[data-ready='1'] canvas")
    assert page.locator("#lineage li.round").count() == 3
    assert "accepted" in page.inner_text("#round-1") and "tritongpu-coalesce" in page.inner_text("#round-1")
    assert page.locator("#round-1 #round-2").count() == 1  # round 2 descends from round 1
    shot(page, "run")
