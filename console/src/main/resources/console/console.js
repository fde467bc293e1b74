// The FlowSQL console page: plain JavaScript, no library, no build step. Everything shown that came from a model,
// a database or a person is put in as text (textContent), never as markup.
'use strict';
(function () {
  const SVG = 'http://www.w3.org/2000/svg';
  const state = { dialogues: new Map(), current: null, databases: [], feedback: false };
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.substring(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function api(path, body) {
    const options = body === undefined ? {} : {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-FlowSQL-Console': '1' },
      body: JSON.stringify(body),
    };
    const response = await fetch(path, options);
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(json.error ? json.error.message : 'HTTP ' + response.status);
    return json;
  }

  // --- SQL highlighting: a small tokenizer (comments, strings, quoted names, numbers, words, the rest) ---
  const KEYWORDS = new Set(('SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN LEFT RIGHT INNER OUTER CROSS NATURAL ' +
    'ON USING AS AND OR NOT IN IS NULL LIKE GLOB BETWEEN EXISTS DISTINCT UNION ALL INTERSECT EXCEPT CASE WHEN THEN ELSE ' +
    'END ASC DESC WITH RECURSIVE INSERT UPDATE DELETE INTO VALUES SET CREATE DROP ALTER TABLE CAST COLLATE NOCASE ' +
    'ESCAPE OVER PARTITION FILTER WINDOW REPLACE PRAGMA ATTACH').split(' '));
  const FUNCTIONS = new Set(('COUNT SUM AVG MIN MAX TOTAL ROUND ABS LENGTH LOWER UPPER SUBSTR SUBSTRING COALESCE IFNULL ' +
    'NULLIF IIF STRFTIME JULIANDAY DATE TIME DATETIME TRIM INSTR GROUP_CONCAT ROW_NUMBER RANK DENSE_RANK').split(' '));
  const TOKEN = /(--[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|('(?:[^']|'')*'?)|("(?:[^"]|"")*"?|`[^`]*`?|\[[^\]]*\]?)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)|(\s+|[\s\S])/g;

  function highlight(sql, testid) {
    const pre = el('pre', { class: 'sql', 'data-testid': testid || 'sql' });
    const text = sql || '';
    TOKEN.lastIndex = 0;
    let m;
    while ((m = TOKEN.exec(text)) !== null) {
      let cls = null;
      if (m[1]) cls = 'cmt';
      else if (m[2]) cls = 'str';
      else if (m[4]) cls = 'num';
      else if (m[5]) {
        const upper = m[5].toUpperCase();
        if (KEYWORDS.has(upper)) cls = 'kw';
        else if (FUNCTIONS.has(upper) && text.charAt(TOKEN.lastIndex) === '(') cls = 'fn';
      }
      pre.append(cls ? el('span', { class: cls, text: m[0] }) : document.createTextNode(m[0]));
    }
    return pre;
  }

  // --- results: a table, and a bar chart of the first numeric column ---
  const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

  function numericColumns(columns, rows) {
    return columns.map((_, j) => {
      const values = rows.map((r) => r[j]).filter((v) => v !== null && v !== undefined && v !== '');
      return values.length > 0 && values.every((v) => NUMBER.test(String(v).trim()));
    });
  }

  function resultTable(result, testid) {
    const numeric = numericColumns(result.columns, result.rows);
    const table = el('table', { class: 'result', 'data-testid': testid });
    table.append(el('thead', {}, el('tr', {}, ...result.columns.map((c) => el('th', { text: c === null ? '' : c })))));
    const body = el('tbody');
    for (const row of result.rows) {
      body.append(el('tr', {}, ...row.map((v, j) => el('td', numeric[j] ? { class: 'num', text: v === null ? 'NULL' : v }
        : { text: v === null ? 'NULL' : v }))));
    }
    table.append(body);
    const shown = result.rows.length;
    // a result the executor cut at its row cap has at least row_count rows: "1000+ rows (1000 shown)", never "1000 rows (1000 shown)"
    const cutAtCap = result.truncated && shown >= result.row_count;
    const meta = el('div', { class: 'result-meta', text: result.row_count + (cutAtCap ? '+' : '') +
      (result.row_count === 1 && !cutAtCap ? ' row' : ' rows') +
      (shown < result.row_count || result.truncated ? ' (' + shown + ' shown)' : '') +
      (result.elapsed_ms !== undefined ? ' · ' + result.elapsed_ms.toFixed(1) + ' ms' : '') });
    return el('div', {}, table, meta);
  }

  // a column named like an identifier (id, singer_id, SingerId, id_2) holds keys, not amounts: charting it says nothing
  const ID_LIKE = /(^id$|_id$|^id_|[a-z]Id$|^.*_?key$)/i;

  // the answer's chart spec (answers schema `chart`), when it has one, picks the chart and its columns
  function barChart(result, spec) {
    if (spec && spec.type === 'none') return null;
    if (spec && spec.type === 'line') return lineChart(result, spec);
    const numeric = numericColumns(result.columns, result.rows);
    const valueCol = spec && spec.y && spec.y.length ? result.columns.indexOf(spec.y[0])
      : numeric.findIndex((isNumber, j) => isNumber && !ID_LIKE.test(String(result.columns[j] || '')));
    if (valueCol < 0 || result.rows.length === 0) return null;
    const labelCol = spec && spec.x ? result.columns.indexOf(spec.x) : numeric.indexOf(false);
    const rows = result.rows.slice(0, 20);
    const values = rows.map((r) => Number(r[valueCol]) || 0);
    const max = Math.max(...values.map(Math.abs), 1e-9);
    const labelWidth = 130, barArea = 260, barHeight = 18, gap = 6, top = 22;
    const height = top + rows.length * (barHeight + gap) + 4;
    const chart = svg('svg', { class: 'chart', width: labelWidth + barArea + 70, height: height,
      viewBox: '0 0 ' + (labelWidth + barArea + 70) + ' ' + height, role: 'img', 'data-testid': 'chart' });
    chart.append(svg('text', { x: 6, y: 14 }, (result.columns[valueCol] || 'value') +
      (labelCol >= 0 ? ' by ' + (result.columns[labelCol] || '') : '')));
    rows.forEach((r, i) => {
      const y = top + i * (barHeight + gap);
      const label = labelCol >= 0 ? String(r[labelCol]) : '#' + (i + 1);
      chart.append(svg('text', { x: 6, y: y + 13 }, label.length > 18 ? label.substring(0, 17) + '…' : label));
      const w = Math.max(1, Math.round(Math.abs(values[i]) / max * barArea));
      const bar = svg('rect', { x: labelWidth, y: y, width: w, height: barHeight, 'data-value': values[i] });
      bar.append(svg('title', {}, label + ': ' + r[valueCol]));
      chart.append(bar);
      chart.append(svg('text', { x: labelWidth + w + 4, y: y + 13 }, String(r[valueCol])));
    });
    return chart;
  }

  function lineChart(result, spec) {
    const xCol = result.columns.indexOf(spec.x), yCol = result.columns.indexOf((spec.y || [])[0]);
    if (xCol < 0 || yCol < 0 || result.rows.length < 2) return null;
    const rows = result.rows.slice(0, 20), w = 400, h = 160, left = 40, top = 22;
    const values = rows.map((r) => Number(r[yCol]) || 0);
    const min = Math.min(...values), max = Math.max(...values), span = max - min || 1;
    const points = values.map((v, i) => (left + i * (w - left - 10) / (rows.length - 1)).toFixed(1) + ',' +
      (top + (h - top - 20) * (1 - (v - min) / span)).toFixed(1));
    const chart = svg('svg', { class: 'chart', width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, role: 'img',
      'data-testid': 'chart', 'data-chart-type': 'line' });
    chart.append(svg('text', { x: 6, y: 14 }, result.columns[yCol] + ' over ' + result.columns[xCol]));
    chart.append(svg('polyline', { points: points.join(' '), fill: 'none', stroke: 'currentColor' }));
    chart.append(svg('text', { x: left, y: h - 4 }, String(rows[0][xCol])));
    chart.append(svg('text', { x: w - 90, y: h - 4 }, String(rows[rows.length - 1][xCol])));
    return chart;
  }

  function resultView(result, testid, spec) {
    const chart = barChart(result, spec);
    return el('div', { class: 'row' }, resultTable(result, testid), chart);
  }

  // --- the SQL editor: edit any SQL of an answer and run it (read-only, the job's guard and budgets) ---
  // --- feedback: a verdict on an answer, or the corrected SQL, to the job's feedback topic ---
  async function sendFeedback(requestId, verdict, correctedSql, status) {
    status.className = 'muted';
    status.textContent = 'sending…';
    try {
      const body = { request_id: requestId, verdict: verdict };
      if (correctedSql) body.corrected_sql = correctedSql;
      const sent = await api('/api/feedback', body);
      status.textContent = (correctedSql ? 'correction' : verdict) + ' sent as ' + sent.feedback_id;
      status.dataset.feedbackId = sent.feedback_id;
    } catch (e) {
      status.className = 'error';
      status.textContent = e.message;
    }
  }

  function feedbackBar(requestId) {
    const status = el('span', { class: 'muted', 'data-testid': 'feedback-status' });
    return el('div', { class: 'feedback' }, el('span', { class: 'muted', text: 'Is this answer right?' }),
      el('button', { type: 'button', 'data-testid': 'feedback-correct', text: 'Correct',
        onclick: () => sendFeedback(requestId, 'correct', null, status) }),
      el('button', { type: 'button', 'data-testid': 'feedback-wrong', text: 'Wrong',
        onclick: () => sendFeedback(requestId, 'wrong', null, status) }), status);
  }

  function editor(db, sql, requestId) {
    const area = el('textarea', { rows: 4, 'data-testid': 'sql-editor', spellcheck: 'false' });
    area.value = sql || '';
    const out = el('div', { class: 'run-result', 'data-testid': 'run-result' });
    const run = el('button', { type: 'button', 'data-testid': 'run-sql', text: 'Run', onclick: async () => {
      out.replaceChildren(el('span', { class: 'muted', text: 'running…' }));
      delete out.dataset.sql;
      markStale();
      try {
        const result = await api('/api/run', { db: db, sql: area.value });
        if (result.error) {
          out.replaceChildren(el('div', { class: 'error', 'data-testid': 'run-error',
            text: result.error.kind + ': ' + result.error.message }));
        } else {
          out.replaceChildren(highlight(area.value, 'run-sql-text'), resultView(result, 'run-table'));
          out.dataset.sql = area.value;
          markStale();
        }
      } catch (e) {
        out.replaceChildren(el('div', { class: 'error', 'data-testid': 'run-error', text: e.message }));
      }
    } });
    // a result under SQL that was edited since is no longer that SQL's result: say so until it is run again
    const stale = el('div', { class: 'stale-note', 'data-testid': 'run-stale', hidden: '',
      text: 'The SQL was edited after this result: Run it again to see the edited query\'s result.' });
    function markStale() {
      const edited = out.dataset.sql !== undefined && out.dataset.sql !== area.value;
      stale.hidden = !edited;
      out.classList.toggle('stale', edited);
    }
    area.addEventListener('input', markStale);
    const buttons = el('div', { class: 'buttons' }, run);
    if (state.feedback && requestId) {
      const status = el('span', { class: 'muted', 'data-testid': 'correction-status' });
      buttons.append(el('button', { type: 'button', 'data-testid': 'send-correction', text: 'Send as the corrected SQL',
        onclick: () => sendFeedback(requestId, 'wrong', area.value, status) }), status);
    }
    buttons.append(el('span', { class: 'muted', text: 'read-only: one SELECT, on ' + db }));
    const box = el('div', { class: 'editor', hidden: '' }, area, buttons, stale, out);
    const toggle = el('button', { type: 'button', 'data-testid': 'edit-sql', text: 'Edit and run SQL', onclick: () => {
      box.hidden = !box.hidden;
      if (!box.hidden) area.focus();
    } });
    return el('div', {}, toggle, box);
  }

  // --- why: stages with latency and tokens, candidates by vote group, corrections ---
  const CORRECTING = /correct|refine|fix|align|adherence|review|craft/;

  function cellsRow(tag, values) {
    return el('tr', {}, ...values.map((v) => el(tag, { text: v === undefined || v === null ? '' : String(v) })));
  }

  function whyPanel(answer) {
    const panel = el('details', { class: 'why', 'data-testid': 'why' }, el('summary', { text: 'Why this answer' }));
    const trace = answer.trace || [];
    if (trace.length > 0) {
      const totals = { latency: 0, calls: 0, prompt: 0, completion: 0 };
      const table = el('table', { class: 'result', 'data-testid': 'why-stages' },
        el('thead', {}, cellsRow('th', ['stage', 'model', 'latency ms', 'LLM calls', 'prompt tokens (cached)',
          'completion tokens', 'retries', 'outcome'])));
      const body = el('tbody');
      for (const t of trace) {
        totals.latency += t.latency_ms || 0; totals.calls += t.llm_calls || 0;
        totals.prompt += t.prompt_tokens || 0; totals.completion += t.completion_tokens || 0;
        body.append(cellsRow('td', [t.stage, t.model, t.latency_ms, t.llm_calls,
          (t.prompt_tokens || 0) + (t.cached_prompt_tokens ? ' (' + t.cached_prompt_tokens + ')' : ''),
          t.completion_tokens, t.retries, (t.outcome || '') + (t.error ? ': ' + t.error : '')]));
      }
      body.append(cellsRow('th', ['total', '', totals.latency, totals.calls, totals.prompt, totals.completion, '', '']));
      table.append(body);
      panel.append(el('h4', { text: 'Stages' }), table);
    }
    const candidates = answer.candidates || [];
    if (candidates.length > 0) {
      const groups = new Map();
      for (const c of candidates) {
        const key = c.error ? 'error' : String(c.votes || 0);
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(c);
      }
      const keys = [...groups.keys()].sort((a, b) => (b === 'error' ? -1 : a === 'error' ? 1 : Number(b) - Number(a)));
      const table = el('table', { class: 'result', 'data-testid': 'why-candidates' },
        el('thead', {}, cellsRow('th', ['vote group', 'votes', 'source', 'SQL', 'ms', 'error'])));
      const body = el('tbody');
      keys.forEach((key, g) => {
        for (const c of groups.get(key)) {
          const row = el('tr', c.sql === answer.sql && !c.error ? { class: 'winner' } : {},
            el('td', { text: key === 'error' ? 'failed' : '#' + (g + 1) }), el('td', { text: String(c.votes || 0) }),
            el('td', { text: c.source || '' }), el('td', {}, highlight(c.sql, 'candidate-sql')),
            el('td', { text: c.elapsed_micros ? (c.elapsed_micros / 1000).toFixed(1) : '' }), el('td', { text: c.error || '' }));
          body.append(row);
        }
      });
      table.append(body);
      panel.append(el('h4', { text: 'Candidates (the chosen one highlighted)' }), table);
    }
    const corrections = trace.filter((t) => CORRECTING.test(t.stage) && (t.llm_calls || 0) > 0);
    panel.append(el('h4', { text: 'Corrections' }));
    panel.append(corrections.length === 0 ? el('p', { class: 'muted', text: 'No correcting stage called the model.' })
      : el('ul', { 'data-testid': 'why-corrections' }, ...corrections.map((t) => el('li', {
        text: t.stage + ': ' + t.llm_calls + ' model call(s), ' + (t.latency_ms || 0) + ' ms' + (t.outcome ? ', ' + t.outcome : '') }))));
    return panel;
  }

  // --- one turn of a dialogue ---
  function renderTurn(dialogue, turn) {
    const node = turn.el;
    const a = turn.answer;
    const status = a ? a.status : (turn.dead ? 'failed' : 'pending');
    const head = el('div', { class: 'question' }, document.createTextNode(turn.question),
      el('span', { class: 'badge ' + status, 'data-testid': 'status', text: status === 'pending' ? 'waiting for the answer…' : status }));
    if (a && a.question_type) head.append(el('span', { class: 'badge', 'data-testid': 'question-type', text: a.question_type }));
    if (a && a.simulated) head.append(el('span', { class: 'badge', title: 'a stage was answered by the simulated LLM', text: 'simulated' }));
    node.replaceChildren(head);
    if (turn.dead) {
      node.append(el('p', { class: 'error', text: 'The job refused the question: ' + turn.dead.reason }));
      return;
    }
    if (!a) return;
    if (a.status === 'answered') {
      if (a.summary) node.append(el('div', { class: 'reply', 'data-testid': 'summary', text: a.summary }));
      if (a.knowledge_used) node.append(el('div', { class: 'result-meta', 'data-testid': 'knowledge-used',
        text: 'definitions used: ' + a.knowledge_used.join(', ') }));
      node.append(highlight(a.sql, 'answer-sql'));
      if (a.result) node.append(resultView(a.result, 'result-table', a.chart));
      node.append(editor(dialogue.db, a.sql, a.request_id));
    } else if (a.status === 'clarification') {
      node.append(el('div', { class: 'reply', 'data-testid': 'reply', text: a.response || 'The question can be read more than one way.' }));
      for (const r of a.interpretations || []) {
        node.append(el('div', { class: 'reading', 'data-testid': 'reading' }, el('div', { text: r.reading || '' }), highlight(r.sql, 'reading-sql')));
      }
      node.append(editor(dialogue.db, (a.interpretations || []).map((r) => r.sql).find((s) => s) || '', a.request_id));
    } else if (a.status === 'refused') {
      node.append(el('div', { class: 'reply', 'data-testid': 'reply', text: a.response || 'No SQL answers this question.' }));
    } else {
      node.append(el('p', { class: 'error', 'data-testid': 'answer-error', text: 'Failed' + (a.failed_stage ? ' in ' + a.failed_stage : '') +
        (a.error_kind ? ' (' + a.error_kind + ')' : '') + ': ' + (a.error || '') }));
    }
    if (state.feedback && (a.status === 'answered' || a.status === 'clarification')) node.append(feedbackBar(a.request_id));
    node.append(whyPanel(a));
  }

  // --- dialogues ---
  function dialogueOf(id, db) {
    let d = state.dialogues.get(id);
    if (!d) {
      d = { id: id, db: db, turns: [], byRequest: new Map() };
      state.dialogues.set(id, d);
    }
    return d;
  }

  function turnOf(d, requestId, question) {
    let t = d.byRequest.get(requestId);
    if (!t) {
      t = { requestId: requestId, question: question || '', answer: null, dead: null,
        el: el('section', { class: 'turn', 'data-testid': 'turn', 'data-request-id': requestId }) };
      d.byRequest.set(requestId, t);
      d.turns.push(t);
    }
    return t;
  }

  function renderNav() {
    $('dialogues').replaceChildren(...[...state.dialogues.values()].map((d) => el('li', {
      class: d.id === state.current ? 'current' : '', 'data-testid': 'dialogue', 'data-dialogue-id': d.id,
      text: '[' + d.db + '] ' + (d.turns.length ? d.turns[0].question : ''), onclick: () => select(d.id) })));
  }

  function select(id) {
    state.current = id;
    const d = id ? state.dialogues.get(id) : null;
    $('turns').replaceChildren(...(d ? d.turns.map((t) => t.el) : []));
    $('db').disabled = !!d;
    if (d) $('db').value = d.db;
    $('dialogue-title').textContent = d ? 'Dialogue on ' + d.db + ' (follow-ups keep its history)' : 'A new dialogue: pick a database and ask.';
    renderNav();
  }

  function onQuestion(q) {
    const d = dialogueOf(q.dialogue_id, q.db_id);
    const t = turnOf(d, q.request_id, q.question);
    renderTurn(d, t);
    if (state.current === d.id) $('turns').append(t.el);
    renderNav();
  }

  function onAnswer(a) {
    const d = dialogueOf(a.dialogue_id, a.db_id);
    const t = turnOf(d, a.request_id, a.question);
    t.answer = a;
    renderTurn(d, t);
    if (state.current === d.id && !t.el.isConnected) $('turns').append(t.el);
    renderNav();
  }

  function onDeadLetter(x) {
    const d = state.dialogues.get(x.dialogue_id);
    if (!d) return;
    const t = x.request_id ? d.byRequest.get(x.request_id) : d.turns.find((turn) => !turn.answer);
    if (!t) return;
    t.dead = x;
    renderTurn(d, t);
  }

  async function ask(event) {
    event.preventDefault();
    const question = $('question').value.trim();
    if (!question) return;
    $('ask-error').textContent = '';
    $('ask').disabled = true;
    try {
      const body = state.current ? { dialogue_id: state.current, question: question } : { db: $('db').value, question: question };
      const asked = await api('/api/ask', body);
      $('question').value = '';
      onQuestion(asked);
      if (state.current !== asked.dialogue_id) select(asked.dialogue_id);
    } catch (e) {
      $('ask-error').textContent = e.message;
    } finally {
      $('ask').disabled = false;
    }
  }

  // The answer follower's health (GET /api/health): the page says so when answers cannot reach it.
  async function checkHealth() {
    let health;
    try {
      const response = await fetch('/api/health');
      health = (await response.json()).answers;
    } catch (e) {
      health = { state: 'unreachable', detail: 'the console does not answer' };
    }
    const bad = !health || health.state !== 'following';
    document.body.dataset.follower = health ? health.state : 'unknown';
    $('follower').textContent = bad && health ? 'answers are not followed: ' + health.state.replace('_', ' ') + ' (' + health.detail + ')' : '';
    connectionText();
  }

  // The page's stream to the console may be open while the console's follower is not following: say "following"
  // only when both hold.
  function connectionText() {
    const live = document.body.dataset.live === 'yes';
    const following = !document.body.dataset.follower || document.body.dataset.follower === 'following';
    $('connection').textContent = !live ? 'reconnecting…' : following ? 'following answers (read_committed)' : 'connected; answers not followed';
  }

  function follow() {
    checkHealth();
    setInterval(checkHealth, 5000);
    listen();
  }

  // A refused stream (429: this session's tabs hold every stream it may have) is not retried by the browser: open a
  // new one after a while, from the last event seen.
  let lastEventId = 0;
  function listen() {
    const events = new EventSource('/api/events?after=' + lastEventId);
    const seen = (handler) => (e) => { lastEventId = Number(e.lastEventId) || lastEventId; handler(JSON.parse(e.data)); };
    events.addEventListener('open', () => { document.body.dataset.live = 'yes'; connectionText(); });
    events.addEventListener('error', () => {
      document.body.dataset.live = 'no';
      connectionText();
      if (events.readyState === EventSource.CLOSED) setTimeout(listen, 10000);
    });
    events.addEventListener('question', seen(onQuestion));
    events.addEventListener('answer', seen(onAnswer));
    events.addEventListener('dead_letter', seen(onDeadLetter));
  }

  async function start() {
    $('ask-form').addEventListener('submit', ask);
    $('new-dialogue').addEventListener('click', () => select(null));
    $('question').addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) ask(e); });
    try {
      const list = await api('/api/databases');
      state.databases = list.databases;
      state.feedback = list.feedback === true;
      $('db').replaceChildren(...list.databases.map((id) => el('option', { value: id, text: id })));
      const preferred = list.databases.indexOf('concert_singer');
      if (preferred >= 0) $('db').value = 'concert_singer';
    } catch (e) {
      $('ask-error').textContent = 'cannot list the databases: ' + e.message;
    }
    follow();
    document.body.dataset.ready = 'yes';
  }

  start();
})();
