// The page shell shared by the run report and the comparison page: doctype, CSP, the inline style and script.

import { html, type SafeHtml, trustedMarkup } from './html.ts'
import { CONTENT_SECURITY_POLICY, REPORT_SCRIPT, REPORT_STYLE } from './page-assets.ts'

export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${trustedMarkup(REPORT_STYLE)}</style>
</head>
<body>
${body}
<script>${trustedMarkup(REPORT_SCRIPT)}</script>
</body>
</html>
`.text
}
