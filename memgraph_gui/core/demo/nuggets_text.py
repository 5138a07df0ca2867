"""Word pools for the Nuggets demo: an assistant's memory of its user ("astra") and a coding
agent's memory of a web shop project ("webshop"), in English and Chinese."""

from __future__ import annotations

# -- astra: the user, their people, their tastes ---------------------------------------------------
USER_FACTS = [
    ("user:name", "Esteban Morales"),
    ("user:city", "Valencia, Spain"),
    ("user:timezone", "Europe/Madrid (UTC+1, UTC+2 in summer)"),
    ("user:languages", "Spanish, English, learning Mandarin 中文 since 2025"),
    ("user:job", "runs a small online shop for tea and ceramics"),
    ("user:business:name", "Hoja Verde — 绿叶茶铺"),
    ("user:partner", "Lucía, a nurse who works night shifts"),
    ("user:pet", "a grey cat called Mochi"),
    ("user:wake_time", "around 6:30, earlier on market days"),
    ("user:health:allergy", "mild allergy to peanuts"),
    ("user:user_name", "Esteban (prefers Este in casual chat)"),
    ("user:user_tone", "direct, friendly, dislikes long preambles"),
    ("user:chinese_name", "马德文 (given by his Mandarin teacher)"),
    ("user:hometown", "Cuenca, Castilla-La Mancha"),
    ("user:birthday", "14 March"),
    ("user:car", "none; cycles or takes the metro"),
]
PREF_DOMAINS = {
    "tea": ["green", "oolong in the afternoon", "no sugar, ever", "Longjing 龙井 when guests come"],
    "coffee": ["one espresso before 10:00", "oat milk", "never decaf"],
    "music": ["flamenco guitar while working", "lo-fi on Sundays", "王菲 for Mandarin practice"],
    "food": ["vegetarian on weekdays", "spicy Sichuan dishes 川菜", "no peanuts (allergy)"],
    "reading": ["short history books", "Liu Cixin in translation", "no self-help"],
    "news": ["a digest at 8:00, max five items", "no celebrity news"],
    "calendar": ["no meetings before 10:00", "Fridays kept free for the workshop"],
    "writing": ["short bullet summaries", "Spanish for family messages", "English for suppliers"],
    "reminders": ["one nudge, not three", "the evening before, at 21:00"],
    "travel": ["trains over planes", "window seat", "hotels near a market"],
    "sport": ["climbing twice a week", "a run on Sunday mornings"],
    "shopping": ["local ceramics", "avoid fast fashion", "second-hand books"],
    "work": ["batch emails at 11:00 and 17:00", "invoices on the first Monday"],
    "learning": ["20 minutes of Mandarin a day", "HSK 3 flashcards 汉字"],
}
PREF_CONTEXTS = ["", ":weekday", ":weekend", ":travel", ":guests", ":work", ":morning", ":evening"]
PEOPLE = [
    ("denis", "Denis", "old friend from university, now in Lyon"),
    ("lucia", "Lucía", "partner; night shifts at the hospital"),
    ("mama", "Carmen", "his mother, lives in Cuenca"),
    ("wei", "Wang Wei 王伟", "Mandarin teacher, online on Tuesdays"),
    ("ana", "Ana", "sister, two kids, lives in Madrid"),
    ("jordi", "Jordi", "ceramics supplier in La Bisbal"),
    ("mei", "Li Mei 李梅", "tea supplier in Hangzhou 杭州"),
    ("pablo", "Pablo", "climbing partner"),
    ("sofia", "Sofía", "accountant, quarterly VAT"),
    ("tomas", "Tomás", "neighbour, feeds Mochi when they travel"),
]
PERSON_ATTRS = [
    ("birthday", ["2 May", "19 November", "7 January", "30 August", "12 June", "25 October"]),
    ("likes", ["good olive oil", "board games", "jazz", "Pu-erh tea 普洱", "mountain walks"]),
    ("avoid", ["politics at dinner", "calls before noon", "gifts with plastic", "spicy food"]),
    ("contact", ["WhatsApp", "email only", "WeChat 微信", "phone on weekends"]),
    ("last_seen", ["dinner in Ruzafa", "video call", "the market on Saturday", "his birthday"]),
    ("owes", ["a book on Song dynasty ceramics", "20 € from the concert", "a visit"]),
]
SELF_FACTS = [
    ("self:assistant_name", "Astra"),
    ("self:assistant_style", "warm, concise, a little dry humour; no emojis unless he uses them"),
    ("self:assistant_voice", "calm; answers first, details after"),
    ("self:identity", "a personal assistant running on Esteban's home server"),
    ("self:persona:boundaries", "never sends messages on his behalf without a confirmation"),
    ("self:style:summaries", "three bullets, then one line of what to do next"),
    ("self:style:chinese", "simplified characters with pinyin for new words 生词"),
    ("self:tools", "calendar, mail drafts, the shop's order export, a notes folder"),
    ("self:limits", "cannot pay invoices; drafts them for Sofía"),
    ("self:memory_policy", "facts he states are durable; guesses are marked inferred"),
    ("self:persona:tone_at_night", "shorter replies after 22:00"),
    ("self:style:spanish", "tuteo, never usted with him"),
]
SESSION_TOPICS = [
    "planning the week",
    "supplier email to Hangzhou",
    "Mandarin practice 练习口语",
    "Lucía's schedule",
    "tax quarter prep",
    "a new glaze order",
    "weekend climbing plan",
    "market stall inventory",
    "trip to Lyon",
    "family dinner",
    "shop newsletter draft",
    "reading list",
]
MOODS = ["tired but upbeat", "busy", "relaxed", "stressed about VAT", "happy, sold out at market"]
REFLECTIONS_ASTRA = [
    ("he answers faster when I give two options instead of open questions", ["communication"]),
    ("reminders the night before worked better than morning ones", ["reminders"]),
    ("mixing Spanish and Mandarin in one reply confused him; keep them apart", ["language"]),
    ("he ignores long newsletters; the short digest gets read", ["news"]),
    ("supplier mails need the order number in the subject or Li Mei misses them", ["suppliers"]),
    ("I suggested coffee after 16:00 twice; he does not drink it then", ["coffee"]),
    ("用中文复习生词时，他更喜欢先看拼音再看汉字", ["language", "中文"]),
    ("weekend plans change often; confirm on Friday evening", ["calendar"]),
    ("he likes being told what I am unsure about", ["communication"]),
    ("Denis's visits always collide with the market; check the stall rota first", ["denis"]),
]
JOURNAL_ZH = [
    (
        "周末计划：杭州之行",
        "和李梅确认龙井新茶的样品，顺便去西湖走走。火车票已经看好，周五晚出发。",
    ),
    ("学习笔记：第十二课", "今天学了「已经」和「还没」的用法。他说发音比上周好多了。"),
    ("茶铺周报", "本周卖出绿茶四十包，陶瓷杯十二个。客人问了很多关于普洱的问题。"),
    ("和王老师的对话", "王老师建议每天写三句话的日记，用新学的词。"),
    ("家庭晚餐", "妈妈从昆卡来，带了自家做的奶酪。露西亚下夜班后一起吃饭。"),
    ("攀岩记录", "和巴勃罗去了 Chulilla，完成了两条 6a 路线。"),
    ("供应商备忘", "Jordi 的釉料订单推迟两周，需要通知预订的客人。"),
    ("读书笔记：三体", "第二部比第一部更紧张。他想读英文版对照。"),
    ("市场日", "周六早上六点出摊，下雨，客人少，但卖完了所有的茶饼。"),
    ("生日礼物想法", "安娜的孩子喜欢恐龙；给妈妈买一套手工茶杯。"),
]
LEARNINGS = [
    ("learned: the shop's busiest hour is 20:00-21:00 on Sundays", ["shop"]),
    ("learned: Mochi needs the vet every March", ["mochi"]),
    ("learned: VAT is due 20 days after each quarter", ["tax"]),
    ("learned: Hangzhou suppliers close for the Spring Festival 春节", ["suppliers"]),
    ("learned: Lucía sleeps until 14:00 after a night shift", ["lucia"]),
    ("learned: climbing gym is closed on Mondays", ["sport"]),
    ("learned: HSK 3 exam dates are in March and October", ["language"]),
    ("learned: Jordi only answers emails on Thursdays", ["suppliers"]),
]
TMP_ASTRA = [
    ("_tmp:draft-reply", "Hi Li Mei, could you send the spring price list…"),
    ("_scratch:gift-ideas", "ceramic teapot? book? concert tickets?"),
    ("tmp:parking", "level -2, spot 41"),
    ("_tmp:otp-hint", "the code arrives by SMS to the shop phone"),
    ("scratch:shopping-list", "oat milk, rice, tofu, 生姜"),
]

# -- webshop: a coding agent's memory of the project -------------------------------------------------
DIRS = [
    "src/cart",
    "src/checkout",
    "src/catalog",
    "src/auth",
    "src/orders",
    "src/payments",
    "src/search",
    "src/i18n",
    "src/admin",
    "server/api",
    "server/jobs",
    "server/db",
    "tests/e2e",
    "tests/unit",
    "infra",
]
MODULES = [
    "index.ts",
    "store.ts",
    "api.ts",
    "types.ts",
    "hooks.ts",
    "utils.ts",
    "validation.ts",
    "View.tsx",
    "Form.tsx",
    "List.tsx",
    "queries.sql",
    "schema.ts",
    "worker.ts",
    "config.ts",
    "README.md",
    "messages.zh.json",
]
FILE_NOTES = [
    "exports {name} and {other}; {lines} lines",
    "reads config from env; {lines} lines, no tests yet",
    "uses zod for validation; {lines} lines",
    "defines the {name} type shared with {dir}",
    "{lines} lines; TODO about rounding on line {line}",
    "React component; props: items, onChange, locale",
    "SQL for the {name} report; runs nightly",
    "zh-CN strings: 购物车, 结账, 订单 ({lines} keys)",
]
EDITS = [
    "fixed rounding of totals to 2 decimals",
    "added the zh-CN locale switch",
    "renamed {name} to {other}",
    "moved validation to the server",
    "added a retry with backoff",
    "removed the old coupon path",
    "typed the API response",
    "added an index on orders.created_at",
    "split the component in two",
    "guarded against an empty cart",
    "logged the payment provider's error code",
]
PROJECT_FACTS = [
    ("project:deploy-cmd", "pnpm deploy --prod"),
    ("project:stack", "Next.js 15, tRPC, Postgres 16, Stripe, Redis for sessions"),
    ("project:repo", "git@github.com:hojaverde/webshop.git, main is protected"),
    ("project:test-cmd", "pnpm test && pnpm e2e"),
    ("project:node-version", "20.11 LTS"),
    ("project:staging-url", "https://staging.hojaverde.es"),
    ("project:db:migrations", "drizzle-kit; one migration per PR"),
    ("project:payments", "Stripe in EUR; Alipay 支付宝 for Chinese customers, behind a flag"),
    ("project:i18n", "es, en, zh-CN; zh strings reviewed by Wang Wei"),
    ("project:owner", "Esteban; reviews on weekday mornings"),
    ("project:ci", "GitHub Actions, 8 min; flaky e2e on checkout"),
    ("project:status", "v2 checkout behind flag new-checkout, 30% of traffic"),
]
PROJECT_ENV = [
    "STRIPE_KEY",
    "DATABASE_URL",
    "REDIS_URL",
    "ALIPAY_APP_ID",
    "SENTRY_DSN",
    "SMTP_HOST",
]
PACKAGES = [
    ("next", "15.0.3"),
    ("react", "19.0.0"),
    ("zod", "3.23.8"),
    ("drizzle-orm", "0.36.1"),
    ("stripe", "17.3.0"),
    ("@trpc/server", "11.0.0-rc"),
    ("i18next", "23.16.4"),
    ("playwright", "1.48.2"),
    ("ioredis", "5.4.1"),
]
TOPICS_WEB = [
    "checkout",
    "cart",
    "auth",
    "payments",
    "search",
    "i18n",
    "orders",
    "catalog",
    "admin",
    "deploy",
]
DECISIONS = [
    "keep prices in integer cents end to end",
    "server-side validation is the source of truth; the client only hints",
    "one Postgres schema per environment, never shared",
    "feature flags live in the DB, cached 60 s",
    "orders are immutable; refunds are new rows",
    "Chinese product names are stored, not machine-translated on the fly",
    "session tokens rotate on every privilege change",
    "search uses Postgres trigram before any external service",
    "emails render from MJML templates in the repo",
]
BUGS = [
    "cart total off by one cent with three discounted items",
    "zh-CN checkout button text overflows on small phones",
    "double charge when the user clicks pay twice",
    "search returns nothing for two-character Chinese queries",
    "admin export times out over 10k orders",
    "coupon applied after tax instead of before",
    "session lost after switching language",
    "stock count goes negative under concurrent orders",
]
MEETINGS_ZH = [
    ("会议纪要：结账改版", "决定先在 30% 流量上试新结账流程。支付宝延后到下个月。"),
    ("会议纪要：库存同步", "市场摊位卖出的商品需要在当天晚上同步到网站库存。"),
    ("需求：中文商品页", "王老师会校对所有中文商品描述；不要用机器翻译。"),
    ("复盘：双重扣款", "原因是支付按钮没有禁用。已加幂等键，并补了端到端测试。"),
    ("发布说明 v2.3", "新增中文界面、修复购物车四舍五入、后台导出改为异步任务。"),
    ("待办：性能", "商品列表首屏超过两秒，需要图片懒加载和缓存。"),
]
STYLE_WEB = [
    ("style: imports", "absolute imports from @/; no default exports except pages"),
    ("style: tests", "one test file per module; names read as sentences"),
    ("style: commits", "imperative subject under 72 chars; body says why"),
    ("style: sql", "snake_case columns, plural table names"),
    ("style: i18n keys", "dotted keys by page: checkout.pay.button"),
]
TASKS = [
    "migrate coupons to the new pricing module",
    "add Alipay sandbox tests",
    "make the admin export a background job",
    "review zh-CN strings with Wang Wei",
    "remove the old cart API after v2 reaches 100%",
    "add rate limiting to login",
    "write the runbook for Stripe outages",
]
RETROS = [
    "the flaky e2e test cost more time than the feature; quarantine first next time",
    "small PRs got reviewed the same morning; big ones waited days",
    "asking Esteban for copy early avoided a second round",
    "测试数据里缺少中文商品名，导致排序问题没被发现",
    "the migration ran fine on staging but staging had 1% of the data",
]
REASONS = {
    "cluster": ["same topic", "see also", "related", "同一主题", "follow-up"],
    "hub": ["part of", "mentions", "context for", "belongs to the overview"],
    "file": ["touches the same file", "edited for this", "implements", "测试覆盖"],
}
PLANS = [
    "dinner with {person} at 21:00",
    "call {person} about the weekend",
    "climbing gym with {person}",
    "market stall, set up at 6:30",
    "Mandarin lesson (online)",
    "pick up the glaze order from the courier",
    "vet for Mochi at 17:30",
    "send the newsletter draft to {person}",
]
SHOP_ITEMS = [
    "Longjing 龙井 100 g",
    "oolong sampler",
    "handmade cup, celadon glaze",
    "Pu-erh cake 普洱茶饼 357 g",
    "teapot, La Bisbal clay",
    "matcha 50 g",
    "gift box 礼盒",
]
SHIPPING = [
    "ships Tuesday",
    "paid, waiting for stock",
    "pickup at the market",
    "shipped to Lyon",
    "refund requested: chipped cup",
    "gift wrap, note in Chinese",
]
ADJUSTMENTS = [
    "Next time: ask once, with a default.",
    "Adjusting: shorter replies in the evening.",
    "Keep doing this.",
    "I will note it in his preferences when he confirms.",
    "下次先确认再提醒。",
    "Unsure; watch for another week.",
]
JOURNAL_TAILS_ZH = [
    "",
    " 他很满意。",
    " 需要下周再跟进。",
    " 露西亚也同意。",
    " 天气不好，但心情不错。",
]
OUTCOMES = [
    "He decided to wait until Friday.",
    "Drafted two options; he picked the shorter one.",
    "Nothing to do until Li Mei answers.",
    "Added a reminder for Sunday 21:00.",
    "He wants the list in Chinese next time.",
    "Closed: done.",
]
WHYS = [
    "revisit after the v2 launch.",
    "simpler to test.",
    "the accountant asked for it.",
    "avoids the rounding bugs we had.",
    "中文客户需要。",
]
BUG_STATES = [
    "Repro: see the e2e trace; fix pending review.",
    "Fixed in the next release; test added.",
    "Cannot reproduce on staging yet.",
    "Workaround: disable the flag for that shop.",
    "已修复，等待发布。",
]
