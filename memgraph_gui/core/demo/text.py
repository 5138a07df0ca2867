"""Word pools for the demo memory: a bilingual dark-fantasy role-play (English and Chinese)."""

from __future__ import annotations

CHARACTERS = [
    ("Eileen", "艾琳", "the Silver Swordswoman", "银月剑士"),
    ("Kain", "凯恩", "the Exile", "流亡者"),
    ("Lina", "莉娜", "the Herbalist", "草药师"),
    ("Marcus", "马库斯", "the Iron Captain", "铁卫队长"),
    ("Sera", "瑟拉", "the Oracle", "神谕者"),
    ("Dorian", "多里安", "the Merchant Prince", "商人王子"),
    ("Yue", "月", "the Night Archer", "夜弓手"),
    ("Tobias", "托比亚斯", "the Smith", "铁匠"),
    ("Mira", "米拉", "the Thief", "盗贼"),
    ("Aldric", "奥德里克", "the Old King", "老国王"),
    ("Hana", "花", "the Shrine Maiden", "巫女"),
    ("Rowan", "罗恩", "the Ranger", "游侠"),
    ("Celeste", "塞莱斯特", "the Star Mage", "星法师"),
    ("Bram", "布拉姆", "the Innkeeper", "旅店老板"),
    ("Ling", "玲", "the Spy", "密探"),
    ("Varek", "瓦雷克", "the Warlord", "军阀"),
]
SURNAMES = [
    ("", ""),
    ("Ashford", "阿什福德"),
    ("Vale", "维尔"),
    ("Storm", "斯托姆"),
    ("Moon", "沐恩"),
    ("Black", "布莱克"),
    ("Frost", "弗罗斯特"),
    ("Reed", "里德"),
]
LOCATIONS = [
    ("银月城", "Silvermoon City"),
    ("黑森林", "Black Forest"),
    ("灰港", "Greyharbor"),
    ("龙脊山", "Dragonspine Mountains"),
    ("古塔", "the Old Tower"),
    ("王都", "the Royal Capital"),
    ("废墟神殿", "Ruined Temple"),
    ("北境要塞", "Northern Fortress"),
    ("月下旅店", "Moonlit Inn"),
    ("雾沼", "Mist Marsh"),
    ("赤沙荒原", "Red Sand Wastes"),
    ("星落湖", "Starfall Lake"),
]
DISTRICTS = [
    ("东区", "East Ward"),
    ("码头", "Docks"),
    ("地下城", "Undercity"),
    ("集市", "Market"),
    ("城门", "Gate"),
    ("钟楼", "Bell Tower"),
]
THREADS = [
    ("失落的王冠", "the lost crown"),
    ("血月之约", "the blood-moon pact"),
    ("北境叛乱", "the northern rebellion"),
    ("龙之预言", "the dragon prophecy"),
    ("艾琳的誓言", "Eileen's oath"),
    ("暗影公会", "the shadow guild"),
    ("瘟疫源头", "the source of the plague"),
    ("星图碎片", "the star-map shards"),
]
ACTIONS = [
    ("draws her sword against", "拔剑对峙"),
    ("makes a secret deal with", "与之密约"),
    ("is betrayed by", "遭到背叛"),
    ("saves the life of", "救下"),
    ("argues bitterly with", "激烈争吵"),
    ("shares a quiet meal with", "共进晚餐"),
    ("trains at dawn with", "黎明时一同修炼"),
    ("uncovers a letter from", "发现一封来信"),
    ("duels", "决斗"),
    ("confesses to", "向其坦白"),
    ("escapes the guards with", "一同逃脱追兵"),
    ("negotiates a ceasefire with", "谈判停战"),
]
OUTCOMES = [
    "The alliance holds, for now.",
    "Blood is spilled and cannot be taken back.",
    "A promise is made under the moon.",
    "Nobody trusts anybody afterwards.",
    "The map shard changes hands.",
    "The city watch starts asking questions.",
    "局势暂时稳定。",
    "誓言已立，无法反悔。",
    "秘密被揭开了一角。",
]
TRAITS = [
    "stubborn",
    "loyal",
    "reckless",
    "kind",
    "secretive",
    "proud",
    "cheerful",
    "cold",
    "冷静",
    "骄傲",
    "温柔",
    "多疑",
]
GOALS = [
    "avenge her family",
    "find the lost crown",
    "protect the city",
    "escape the past",
    "restore the old kingdom",
    "get rich",
    "找到失散的妹妹",
    "守护银月城",
]
ITEMS = [
    "silver sword",
    "star-map shard",
    "royal seal",
    "healing herbs",
    "a cursed ring",
    "信物玉佩",
    "黑色钥匙",
]
STATES = ["under siege", "peaceful", "occupied", "in ruins", "festival season", "戒严中", "繁荣"]
RELATIONS_SYMMETRIC = ["allied_with", "hostile_to", "family_of", "partner_of"]
RELATIONS_DIRECTED = ["mentor_of", "sworn_to", "debt_owed_to", "deceiving"]
