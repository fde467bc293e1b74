#!/usr/bin/env bash
# Installs Debian's chromium and chromium-driver, once: the HTML report test (HtmlReportInChromiumTest) runs chromium
# headless, the console's browser test (ConsoleInChromiumITCase) drives it through chromium-driver (WebDriver).
# Does nothing when both are already there.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
chromium --version
chromedriver --version
