#!/usr/bin/env node
// Writes test/fixtures/tool-search/catalog.json: the tools the tool-search measurement ranks, beside the
// sample app's own (read from the app at run time). Two upstreams as a gateway would put them (`everything.*`
// and `files.*`, their names and parameters as @modelcontextprotocol/server-everything and server-filesystem
// list them, the descriptions written here in our own words), and generated domains (`crm.*`, `calendar.*`, …)
// of the kind a gateway in front of many SaaS servers serves. Deterministic: run it again, same file.
//   node scripts/bench/tool-search-catalog.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'tool-search', 'catalog.json');

const str = (description) => ({ type: 'string', description });
const int = (description) => ({ type: 'integer', description });
const bool = (description) => ({ type: 'boolean', description });
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const DESTROY = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };

function tool(name, description, properties = {}, required = [], annotations = READ) {
  return { name, description, inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) }, annotations };
}

// Modelled on @modelcontextprotocol/server-everything (its tool names and parameters; descriptions our own).
const everything = [
  tool('everything.echo', 'Sends the given message straight back, unchanged.', { message: str('The text to send back') }, ['message']),
  tool(
    'everything.get-annotated-message',
    'Shows how content annotations (audience, priority) mark up a message, optionally with an image.',
    {
      messageType: str('Which annotation pattern to show: error, success or debug'),
      includeImage: bool('Add an example image to the message')
    }
  ),
  tool('everything.get-env', "Prints the server process's environment variables, to debug how the server is configured."),
  tool('everything.get-resource-links', 'Answers with up to ten links to resources of different kinds.', {
    count: int('How many resource links (1-10)')
  }),
  tool('everything.get-resource-reference', 'Answers with an embedded reference to one resource that clients can read.', {
    resourceType: str('text or blob'),
    resourceId: int('The id of the resource')
  }),
  tool(
    'everything.get-structured-content',
    'Gives the weather of a city as structured content with an output schema clients can validate.',
    {
      location: str('The city')
    }
  ),
  tool(
    'everything.get-sum',
    'Adds two numbers and returns their sum.',
    { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
    ['a', 'b']
  ),
  tool('everything.get-tiny-image', 'Returns a very small PNG image of the MCP logo.'),
  tool(
    'everything.gzip-file-as-resource',
    'Compresses one file with gzip and returns it as an embedded resource or as a link to download it later.',
    {
      name: str('The name of the compressed file'),
      data: str('A URL or data URI of the content to compress'),
      outputType: str('resource or resourceLink')
    },
    [],
    WRITE
  ),
  tool('everything.toggle-simulated-logging', 'Switches simulated log messages at random levels on or off.', {}, [], WRITE),
  tool(
    'everything.toggle-subscriber-updates',
    'Switches simulated update notifications for subscribed resources on or off.',
    {},
    [],
    WRITE
  ),
  tool('everything.trigger-long-running-operation', 'Runs a long operation in steps and reports progress after each one.', {
    duration: { type: 'number', description: 'How long it runs, in seconds' },
    steps: int('How many steps')
  }),
  tool(
    'everything.simulate-research-query',
    'Simulates a deep research job that gathers, analyses and summarises sources in stages, as a task with progress; asks a clarifying question when the topic is ambiguous.',
    {
      topic: str('What to research'),
      ambiguous: bool('Pretend the topic is ambiguous, so that a question is asked')
    },
    ['topic'],
    WRITE
  )
];

// Modelled on @modelcontextprotocol/server-filesystem (its tool names and parameters; descriptions our own).
const path = str('A path inside the allowed directories');
const files = [
  tool(
    'files.read_file',
    'Reads a whole file as text. Deprecated: read_text_file does the same.',
    { path, head: int('Only the first N lines'), tail: int('Only the last N lines') },
    ['path']
  ),
  tool(
    'files.read_text_file',
    'Reads the contents of one text file, whatever its encoding; head or tail give only the first or last lines.',
    { path, head: int('Only the first N lines'), tail: int('Only the last N lines') },
    ['path']
  ),
  tool('files.read_media_file', 'Reads an image or audio file and returns it base64-encoded with its MIME type.', { path }, ['path']),
  tool(
    'files.read_multiple_files',
    'Reads several files at once, each returned with its path; one that cannot be read does not stop the others.',
    { paths: { type: 'array', items: { type: 'string' }, description: 'The files to read' } },
    ['paths']
  ),
  tool(
    'files.write_file',
    'Creates a file, or overwrites an existing one, with the given text content.',
    { path, content: str('The new content') },
    ['path', 'content'],
    DESTROY
  ),
  tool(
    'files.edit_file',
    'Edits a text file by replacing exact runs of lines, and returns a git-style diff of the change; dryRun previews it.',
    {
      path,
      edits: {
        type: 'array',
        items: { type: 'object', properties: { oldText: str('Lines to find'), newText: str('Lines to put instead') } }
      },
      dryRun: bool('Only show the diff')
    },
    ['path', 'edits'],
    DESTROY
  ),
  tool(
    'files.create_directory',
    'Creates a directory, with any missing parent directories; succeeds if it already exists.',
    { path },
    ['path'],
    WRITE
  ),
  tool('files.list_directory', 'Lists the files and subdirectories directly inside a directory, each marked [FILE] or [DIR].', { path }, [
    'path'
  ]),
  tool(
    'files.list_directory_with_sizes',
    'Lists the entries of a directory with the size of each file, sorted by name or by size.',
    { path, sortBy: str('name or size') },
    ['path']
  ),
  tool(
    'files.directory_tree',
    'Gives the recursive tree of a directory as JSON: every file and folder below it, nested.',
    { path, excludePatterns: { type: 'array', items: { type: 'string' } } },
    ['path']
  ),
  tool(
    'files.move_file',
    'Moves or renames a file or directory; fails if the destination exists.',
    { source: str('Where it is'), destination: str('Where it goes') },
    ['source', 'destination'],
    DESTROY
  ),
  tool(
    'files.search_files',
    'Finds files and directories whose paths match a glob pattern, searching subdirectories recursively.',
    { path, pattern: str('A glob pattern such as **/*.ts'), excludePatterns: { type: 'array', items: { type: 'string' } } },
    ['path', 'pattern']
  ),
  tool(
    'files.get_file_info',
    'Gives the metadata of a file or directory: size, creation and modification times, permissions, type.',
    { path },
    ['path']
  ),
  tool('files.list_allowed_directories', 'Lists the directories this server may read and write.')
];

// Generated domains: each a thing kept somewhere, its CRUD-and-search tools, and three tools of its own.
const DOMAINS = [
  [
    'crm',
    'contact',
    'contacts',
    'the CRM',
    { email: 'Email address', company: 'Company name', phone: 'Phone number' },
    [
      [
        'merge_contacts',
        'Merges two duplicate contacts into one, keeping the history of both.',
        { primaryId: 'The contact kept', duplicateId: 'The contact merged into it' }
      ],
      ['log_call', 'Records a phone call with a contact: when, how long, and notes.', { contactId: 'The contact', notes: 'What was said' }],
      ['add_tag', 'Adds a tag (a label such as vip or churn-risk) to a contact.', { contactId: 'The contact', tag: 'The tag' }]
    ]
  ],
  [
    'calendar',
    'event',
    'events',
    'the calendar',
    { start: 'Start time (ISO 8601)', end: 'End time', attendees: 'Email addresses of the attendees' },
    [
      [
        'find_free_slot',
        'Finds the first time slot when all the given people are free for a meeting of a given length.',
        { attendees: 'Who must attend', durationMinutes: 'Meeting length' }
      ],
      [
        'respond_to_invite',
        'Accepts, declines or tentatively accepts a meeting invitation.',
        { eventId: 'The invitation', response: 'accept, decline or tentative' }
      ],
      [
        'set_reminder',
        'Sets a reminder notification some minutes before an event starts.',
        { eventId: 'The event', minutesBefore: 'When to remind' }
      ]
    ]
  ],
  [
    'mail',
    'message',
    'messages',
    'the mailbox',
    { to: 'Recipients', subject: 'Subject line', body: 'Message text' },
    [
      [
        'send_message',
        'Sends an email to one or more recipients, with optional attachments.',
        { to: 'Recipients', subject: 'Subject', body: 'Text' }
      ],
      [
        'reply_to_message',
        'Replies to an email thread, quoting the original message.',
        { messageId: 'The message answered', body: 'The reply' }
      ],
      ['mark_as_read', 'Marks emails as read or unread.', { messageIds: 'The messages', read: 'Read or unread' }]
    ]
  ],
  [
    'github',
    'issue',
    'issues',
    'a GitHub repository',
    { title: 'Issue title', body: 'Issue text', labels: 'Labels' },
    [
      [
        'create_pull_request',
        'Opens a pull request from a branch into the base branch of a repository.',
        { head: 'The branch with the changes', base: 'The target branch' }
      ],
      [
        'merge_pull_request',
        'Merges an approved pull request, by merge commit, squash or rebase.',
        { number: 'The pull request number', method: 'merge, squash or rebase' }
      ],
      [
        'list_commits',
        'Lists the commits of a branch with author, date and message.',
        { branch: 'The branch', since: 'Only after this date' }
      ]
    ]
  ],
  [
    'slack',
    'channel',
    'channels',
    'the Slack workspace',
    { name: 'Channel name', topic: 'Channel topic', private: 'Whether it is private' },
    [
      ['post_message', 'Posts a chat message to a Slack channel or thread.', { channel: 'Where to post', text: 'The message' }],
      ['add_reaction', 'Adds an emoji reaction to a Slack message.', { messageTs: 'The message', emoji: 'The emoji name' }],
      ['invite_user', 'Invites a workspace member into a channel.', { channel: 'The channel', userId: 'Who to invite' }]
    ]
  ],
  [
    'jira',
    'ticket',
    'tickets',
    'the Jira project',
    { summary: 'Ticket summary', assignee: 'Who works on it', priority: 'Priority' },
    [
      [
        'transition_ticket',
        'Moves a ticket to another workflow status, such as In Progress or Done.',
        { key: 'Ticket key', status: 'The new status' }
      ],
      ['add_comment', 'Adds a comment to a Jira ticket.', { key: 'Ticket key', comment: 'The comment' }],
      ['log_work', 'Logs time spent working on a ticket.', { key: 'Ticket key', hours: 'Hours spent' }]
    ]
  ],
  [
    'docker',
    'container',
    'containers',
    'the Docker host',
    { image: 'Image name', ports: 'Published ports', env: 'Environment variables' },
    [
      ['container_logs', 'Shows the recent log output of a running container.', { id: 'The container', lines: 'How many lines' }],
      ['pull_image', 'Downloads an image from a registry.', { image: 'Image and tag' }],
      ['restart_container', 'Stops and starts a container again.', { id: 'The container' }]
    ]
  ],
  [
    'k8s',
    'pod',
    'pods',
    'the Kubernetes cluster',
    { namespace: 'Namespace', labels: 'Label selector', node: 'Node name' },
    [
      ['scale_deployment', 'Changes the number of replicas of a deployment.', { deployment: 'The deployment', replicas: 'How many' }],
      ['rollout_restart', 'Restarts every pod of a deployment, one after another.', { deployment: 'The deployment' }],
      ['apply_manifest', 'Applies a YAML manifest to the cluster, creating or updating its objects.', { manifest: 'The YAML' }]
    ]
  ],
  [
    'dns',
    'record',
    'records',
    'the DNS zone',
    { type: 'A, AAAA, CNAME, MX or TXT', value: 'Record value', ttl: 'Time to live' },
    [
      [
        'check_propagation',
        'Checks whether a DNS change is visible from public resolvers around the world.',
        { hostname: 'The name to resolve' }
      ],
      ['list_zones', 'Lists the domains (zones) managed in the account.', {}],
      ['export_zone_file', 'Exports a whole zone as a BIND zone file.', { zone: 'The domain' }]
    ]
  ],
  [
    'storage',
    'bucket',
    'buckets',
    'object storage',
    { region: 'Region', versioning: 'Keep old versions', public: 'Public read access' },
    [
      [
        'upload_object',
        'Uploads a file into a storage bucket under a key.',
        { bucket: 'The bucket', key: 'Object key', content: 'The data' }
      ],
      [
        'presign_url',
        'Makes a temporary signed URL to download an object without credentials.',
        { bucket: 'The bucket', key: 'Object key', expiresSeconds: 'Validity' }
      ],
      [
        'set_lifecycle',
        'Sets rules that delete or archive old objects automatically.',
        { bucket: 'The bucket', days: 'After how many days' }
      ]
    ]
  ],
  [
    'payments',
    'charge',
    'charges',
    'the payment provider',
    { amount: 'Amount in cents', currency: 'Currency code', customer: 'Customer id' },
    [
      ['refund_charge', 'Refunds a card payment fully or partly to the customer.', { chargeId: 'The payment', amount: 'How much back' }],
      [
        'create_subscription',
        'Subscribes a customer to a recurring plan, billed every month or year.',
        { customer: 'Customer id', plan: 'Price plan' }
      ],
      ['payout_balance', 'Shows the available balance and the next payout to the bank account.', {}]
    ]
  ],
  [
    'weather',
    'station',
    'stations',
    'the weather service',
    { latitude: 'Latitude', longitude: 'Longitude', units: 'metric or imperial' },
    [
      ['current_conditions', 'Gives the current temperature, wind, humidity and sky for a place.', { city: 'The place' }],
      [
        'forecast_daily',
        'Gives the weather forecast for the next days: highs, lows, rain chance.',
        { city: 'The place', days: 'How many days' }
      ],
      ['severe_alerts', 'Lists active storm, flood and heat warnings for a region.', { region: 'The region' }]
    ]
  ],
  [
    'maps',
    'place',
    'places',
    'the maps service',
    { address: 'Street address', category: 'Kind of place', rating: 'Minimum rating' },
    [
      ['geocode_address', 'Turns a street address into latitude and longitude coordinates.', { address: 'The address' }],
      [
        'driving_directions',
        'Gives turn-by-turn driving directions and travel time between two places.',
        { origin: 'From', destination: 'To' }
      ],
      [
        'distance_matrix',
        'Computes travel distances and times between several origins and destinations.',
        { origins: 'From', destinations: 'To' }
      ]
    ]
  ],
  [
    'translate',
    'glossary',
    'glossaries',
    'the translation service',
    { sourceLanguage: 'Language of the terms', targetLanguage: 'Language translated into', entries: 'Term pairs' },
    [
      ['translate_text', 'Translates text from one language into another.', { text: 'The text', target: 'Target language code' }],
      ['detect_language', 'Detects which language a text is written in.', { text: 'The text' }],
      ['list_languages', 'Lists the languages that can be translated.', {}]
    ]
  ],
  [
    'fx',
    'rate_alert',
    'rate_alerts',
    'the currency service',
    { base: 'Base currency', quote: 'Quote currency', threshold: 'Alert threshold' },
    [
      [
        'convert_currency',
        'Converts an amount of money from one currency into another at the current exchange rate.',
        { amount: 'How much', from: 'Currency', to: 'Currency' }
      ],
      [
        'historical_rate',
        'Gives the exchange rate between two currencies on a past date.',
        { date: 'The day', from: 'Currency', to: 'Currency' }
      ],
      ['list_currencies', 'Lists supported currencies with their ISO codes.', {}]
    ]
  ],
  [
    'stocks',
    'watchlist',
    'watchlists',
    'the brokerage',
    { symbols: 'Ticker symbols', name: 'Watchlist name', notes: 'Notes' },
    [
      ['quote', 'Gives the latest share price, daily change and volume of a stock ticker.', { symbol: 'Ticker symbol' }],
      ['price_history', 'Gives daily open, high, low and close prices of a stock over a period.', { symbol: 'Ticker', from: 'Start date' }],
      ['company_earnings', 'Gives a company’s quarterly earnings reports: revenue, profit, earnings per share.', { symbol: 'Ticker' }]
    ]
  ],
  [
    'sheets',
    'spreadsheet',
    'spreadsheets',
    'the spreadsheet service',
    { title: 'Spreadsheet title', sheets: 'Tab names', owner: 'Owner' },
    [
      [
        'read_range',
        'Reads the cell values of a range such as A1:D20 from a sheet.',
        { spreadsheetId: 'The spreadsheet', range: 'The cells' }
      ],
      [
        'write_range',
        'Writes values into a range of cells.',
        { spreadsheetId: 'The spreadsheet', range: 'The cells', values: 'Rows of values' }
      ],
      [
        'append_row',
        'Appends a row of values below the last filled row of a sheet.',
        { spreadsheetId: 'The spreadsheet', values: 'The row' }
      ]
    ]
  ],
  [
    'notes',
    'note',
    'notes',
    'the notebook',
    { title: 'Note title', content: 'Markdown text', folder: 'Folder' },
    [
      ['pin_note', 'Pins a note to the top of its folder.', { noteId: 'The note' }],
      [
        'share_note',
        'Shares a note with other people by email, read-only or editable.',
        { noteId: 'The note', emails: 'Who', canEdit: 'Editable' }
      ],
      ['export_markdown', 'Exports a note as a Markdown file.', { noteId: 'The note' }]
    ]
  ],
  [
    'todo',
    'task',
    'tasks',
    'the to-do list',
    { title: 'What to do', due: 'Due date', priority: 'Priority' },
    [
      ['complete_task', 'Marks a to-do item as done.', { taskId: 'The task' }],
      ['snooze_task', 'Postpones a to-do item to a later date.', { taskId: 'The task', until: 'New date' }],
      ['list_overdue', 'Lists the to-do items past their due date.', {}]
    ]
  ],
  [
    'db',
    'table',
    'tables',
    'the SQL database',
    { schema: 'Schema name', columns: 'Column definitions', primaryKey: 'Primary key' },
    [
      ['run_query', 'Runs a read-only SQL SELECT query and returns the rows.', { sql: 'The query', params: 'Bound parameters' }],
      ['explain_query', 'Shows the query plan the database would use for a SQL statement.', { sql: 'The query' }],
      ['backup_database', 'Takes a full backup (dump) of the database.', { destination: 'Where the dump goes' }]
    ]
  ],
  [
    'http',
    'webhook',
    'webhooks',
    'the webhook service',
    { url: 'Endpoint URL', events: 'Events sent', secret: 'Signing secret' },
    [
      ['fetch_url', 'Fetches a web page or API URL over HTTP and returns the response body.', { url: 'The URL', method: 'GET, POST, …' }],
      ['check_uptime', 'Checks whether a website answers, and how fast.', { url: 'The site' }],
      ['replay_delivery', 'Sends a failed webhook delivery again.', { deliveryId: 'The delivery' }]
    ]
  ],
  [
    'images',
    'album',
    'albums',
    'the photo library',
    { title: 'Album title', coverPhoto: 'Cover photo', shared: 'Shared' },
    [
      ['resize_image', 'Resizes an image to a given width and height.', { url: 'The image', width: 'Pixels', height: 'Pixels' }],
      ['generate_thumbnail', 'Makes a small preview thumbnail of a photo.', { url: 'The photo' }],
      ['describe_image', 'Describes what a photo shows, and reads any text in it (OCR).', { url: 'The photo' }]
    ]
  ],
  [
    'pdf',
    'document',
    'documents',
    'the document store',
    { title: 'Title', pages: 'Page count', author: 'Author' },
    [
      ['extract_text', 'Extracts the text of a PDF document page by page.', { documentId: 'The PDF' }],
      ['merge_pdfs', 'Combines several PDF files into one document.', { documentIds: 'The PDFs in order' }],
      ['fill_form', 'Fills in the form fields of a PDF form.', { documentId: 'The form', fields: 'Field values' }]
    ]
  ],
  [
    'audio',
    'recording',
    'recordings',
    'the audio service',
    { title: 'Title', durationSeconds: 'Length', language: 'Spoken language' },
    [
      ['transcribe_audio', 'Transcribes speech in a recording into text, with timestamps.', { recordingId: 'The recording' }],
      ['text_to_speech', 'Reads a text aloud into an audio file with a chosen voice.', { text: 'The text', voice: 'Voice' }],
      ['trim_audio', 'Cuts a recording to a start and end time.', { recordingId: 'The recording', start: 'Seconds', end: 'Seconds' }]
    ]
  ],
  [
    'web',
    'bookmark',
    'bookmarks',
    'the browser profile',
    { url: 'Page URL', title: 'Title', folder: 'Folder' },
    [
      [
        'web_search',
        'Searches the web and returns the top results with titles, links and snippets.',
        { query: 'What to look for', count: 'How many results' }
      ],
      ['news_search', 'Searches recent news articles about a topic.', { query: 'The topic', days: 'How recent' }],
      ['screenshot_page', 'Takes a screenshot of a web page.', { url: 'The page', fullPage: 'Whole page' }]
    ]
  ],
  [
    'time',
    'world_clock',
    'world_clocks',
    'the clock settings',
    { timezone: 'IANA time zone', label: 'Label', format24h: '24-hour format' },
    [
      ['current_time', 'Gives the current date and time in a time zone.', { timezone: 'Time zone' }],
      ['convert_timezone', 'Converts a date and time from one time zone into another.', { time: 'The time', from: 'Zone', to: 'Zone' }],
      [
        'business_days_between',
        'Counts working days between two dates, skipping weekends and holidays.',
        { from: 'Start', to: 'End', country: 'Holidays of' }
      ]
    ]
  ],
  [
    'shipping',
    'shipment',
    'shipments',
    'the carrier account',
    { carrier: 'Carrier', trackingNumber: 'Tracking number', destination: 'Address' },
    [
      ['track_package', 'Tracks a parcel by its tracking number: where it is and when it arrives.', { trackingNumber: 'Tracking number' }],
      ['buy_label', 'Buys and prints a shipping label for a parcel.', { shipmentId: 'The shipment', service: 'Service level' }],
      [
        'rate_quote',
        'Compares shipping prices and delivery times across carriers for a parcel.',
        { weightGrams: 'Weight', destination: 'Where' }
      ]
    ]
  ],
  [
    'hr',
    'employee',
    'employees',
    'the HR system',
    { name: 'Full name', department: 'Department', manager: 'Manager' },
    [
      ['request_time_off', 'Requests vacation or sick leave for an employee.', { employeeId: 'Who', from: 'First day', to: 'Last day' }],
      ['org_chart', 'Shows who reports to whom in a department.', { department: 'The department' }],
      ['run_payroll', 'Runs the monthly payroll and pays salaries.', { month: 'The month' }]
    ]
  ],
  [
    'inventory',
    'product',
    'products',
    'the inventory',
    { sku: 'Stock keeping unit', price: 'Price', quantity: 'Units in stock' },
    [
      [
        'adjust_stock',
        'Adds or removes units of a product in a warehouse, with a reason.',
        { sku: 'The product', delta: 'Units', reason: 'Why' }
      ],
      ['low_stock_report', 'Lists the products whose stock is below their reorder point.', {}],
      [
        'create_purchase_order',
        'Orders more units of products from a supplier.',
        { supplier: 'The supplier', lines: 'Products and quantities' }
      ]
    ]
  ],
  [
    'analytics',
    'dashboard',
    'dashboards',
    'the analytics workspace',
    { title: 'Title', widgets: 'Charts', refreshMinutes: 'Refresh' },
    [
      ['page_views', 'Counts page views and unique visitors of a website over a period.', { site: 'The site', from: 'Start' }],
      ['funnel_conversion', 'Computes the conversion rate of each step of a signup or checkout funnel.', { funnel: 'The funnel' }],
      ['top_referrers', 'Lists the websites that send the most visitors.', { site: 'The site' }]
    ]
  ]
];

const generated = [];
for (const [ns, one, many, where, fields, extra] of DOMAINS) {
  const props = Object.fromEntries(Object.entries(fields).map(([name, description]) => [name, str(description)]));
  const id = { id: str(`The ${one.replace(/_/g, ' ')} id`) };
  const [field1] = Object.keys(fields);
  const label = one.replace(/_/g, ' ');
  const labels = many.replace(/_/g, ' ');
  generated.push(
    tool(`${ns}.list_${many}`, `Lists the ${labels} in ${where}, newest first, optionally filtered by ${field1}.`, {
      ...props,
      limit: int('At most this many')
    }),
    tool(`${ns}.get_${one}`, `Gets one ${label} from ${where} by its id, with all its fields.`, id, ['id']),
    tool(`${ns}.create_${one}`, `Creates a new ${label} in ${where}.`, props, [field1], WRITE),
    tool(`${ns}.update_${one}`, `Changes the fields of an existing ${label} in ${where}.`, { ...id, ...props }, ['id'], WRITE),
    tool(`${ns}.delete_${one}`, `Deletes a ${label} from ${where} for good.`, id, ['id'], DESTROY),
    tool(
      `${ns}.search_${many}`,
      `Full-text search over the ${labels} in ${where}.`,
      { query: str('Words to look for'), limit: int('At most this many') },
      ['query']
    )
  );
  for (const [name, description, params] of extra) {
    const p = Object.fromEntries(Object.entries(params).map(([key, d]) => [key, str(d)]));
    const writes =
      /^(Merges|Records|Adds|Accepts|Sets|Sends|Replies|Marks|Opens|Merges|Posts|Invites|Moves|Logs|Downloads|Stops|Changes|Restarts|Applies|Uploads|Makes|Refunds|Subscribes|Writes|Appends|Pins|Shares|Postpones|Takes|Resizes|Combines|Fills|Cuts|Buys|Requests|Runs the monthly|Orders|Switches)/.test(
        description
      );
    generated.push(tool(`${ns}.${name}`, description, p, Object.keys(p), writes ? WRITE : READ));
  }
}

const catalog = {
  note: 'Tools ranked by the tool-search measurement (scripts/bench/tool-search.mjs) beside the sample app’s own; written by scripts/bench/tool-search-catalog.mjs.',
  tools: [...everything, ...files, ...generated]
};
writeFileSync(out, `${JSON.stringify(catalog, null, 1)}\n`);
console.log(`${catalog.tools.length} tools written to ${out}`);
