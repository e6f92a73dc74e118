/**
 * Test support: sample prose for token-count tests and the tokens bench (written for Grove, no
 * third-party text), and `unbrokenRun`, which turns it into the worst case for js-tiktoken: one
 * long run with no spaces or punctuation. Nothing in the app imports this file.
 */

/** About 600 characters of everyday Chinese prose. */
export const CHINESE_PROSE =
  "春天来了，城市边上的小河又开始流动起来。冬天的时候，河面上结着一层薄薄的冰，孩子们常常站在岸边，用小石头去敲打冰面，听它发出清脆的声音。现在冰已经化了，河水带着泥土的颜色慢慢向东流去。岸边的柳树长出了新的叶子，嫩绿的颜色让人觉得心情很好。每天早上，附近的老人们都会来这里散步，有的人打太极拳，有的人下象棋，还有的人只是坐在长椅上晒太阳，和身边的朋友聊聊家里的事情。我小时候住在河的北边，那时候这里还没有这么多高楼。放学以后，我和同学们会沿着河边一直走到桥头，在那里买一根冰棍，然后慢慢地走回家。那座桥是用石头建的，据说已经有一百多年的历史了。桥上的栏杆被无数人的手摸得很光滑，上面刻着一些我们看不懂的字。后来城市发展得越来越快，很多老房子被拆掉了，新的马路和商店一个接一个地出现。有一段时间，大家都担心这条小河也会被填平，变成一条公路。幸好政府最后决定保留它，还在两边修了步行道和自行车道。现在这里成了市民最喜欢的地方之一，周末的时候特别热闹。研究人员指出，城市中的河流不仅能够改善空气质量，还可以降低夏天的温度，为鸟类和鱼类提供生活的环境。因此，保护这些水系对于城市的长期发展具有重要的意义。当然，要做到这一点并不容易，需要政府、企业和普通居民共同努力。比如，工厂不能再把污水直接排进河里，居民也应该注意不要随便扔垃圾。学校可以组织学生参加环保活动，让他们从小就明白保护环境的重要性。我相信，只要大家愿意一起行动，我们的城市一定会变得更加美丽。";

/** About 500 characters of everyday Japanese prose (kanji, hiragana, katakana). */
export const JAPANESE_PROSE =
  "昨日の夕方、久しぶりに駅前の古い喫茶店に行ってみました。学生のころは毎週のように通っていた店ですが、就職してからはなかなか時間が取れず、もう五年以上も足を運んでいませんでした。扉を開けると、コーヒーの香りと一緒に懐かしい音楽が流れてきて、まるで時間が止まっているかのような気持ちになりました。店主のおじいさんは少し白髪が増えていましたが、私の顔を見るとすぐに思い出してくれて、いつもの席に案内してくれました。窓際のその席からは、駅を行き交う人々の様子がよく見えます。私はそこで本を読んだり、レポートを書いたり、友達と夜遅くまで話し込んだりしたものです。注文したのは、昔と同じブレンドコーヒーとチーズケーキでした。味は少しも変わっておらず、思わず笑顔になりました。おじいさんによると、最近は若いお客さんが増えているそうです。古い雰囲気の店が珍しいらしく、写真を撮ってインターネットに載せる人も多いとのことでした。それでも店の中の静かな空気は昔のままで、忙しい毎日の中でほっと一息つける大切な場所だと改めて感じました。帰り際に、また近いうちに来ますと伝えると、おじいさんは嬉しそうにうなずいてくれました。";

/** Thai, written without spaces between words (as Thai is): long pre-tokens in ordinary prose. */
export const THAI_PROSE =
  "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำทำให้การตัดคำเป็นเรื่องยากสำหรับคอมพิวเตอร์เมื่อวานนี้ฉันไปตลาดกับแม่เพื่อซื้อผักและผลไม้สดสำหรับทำอาหารเย็นอากาศร้อนมากแต่ผู้คนยังคงเดินซื้อของกันอย่างคึกคักพ่อค้าแม่ค้าต่างส่งเสียงเรียกลูกค้าให้มาดูสินค้าของตน";

/** Korean with the spaces removed. */
export const KOREAN_RUN =
  "오늘은날씨가정말좋아서친구들과함께공원에산책을갔습니다나무들이초록색으로물들어있었고아이들은즐겁게뛰어놀고있었습니다우리는벤치에앉아서커피를마시며이야기를나누었습니다";

/** English prose with punctuation, numbers and a line break. */
export const ENGLISH_PROSE =
  "Grove is a local-first chat app: every conversation is a tree. Any message can be branched from, " +
  "abandoned branches can be summarized, and long contexts (say 200,000 tokens or more) are compacted " +
  "into summaries.\nNothing leaves the machine except the calls to the provider the user chose.";

/** A short TypeScript snippet: identifiers, operators, indentation. */
export const CODE_SNIPPET = `export function clamp(value: number, min = 0, max = 1): number {
    if (Number.isNaN(value)) return min; // NaN sorts nowhere
    return value < min ? min : value > max ? max : value;
}
const xs = [1, 2, 3].map((x) => clamp(x / 3)); // [0.333…, 0.666…, 1]
`;

/** `text` without punctuation or whitespace, repeated and cut to exactly `length` UTF-16 units. */
export function unbrokenRun(text: string, length: number): string {
  const run = text.replace(/[\p{P}\s]/gu, "");
  return run.repeat(Math.ceil(length / run.length)).slice(0, length);
}

/** `length` characters drawn from common CJK ideographs by a seeded generator (deterministic). */
export function randomCjk(length: number, seed = 1): string {
  let state = seed;
  let s = "";
  for (let i = 0; i < length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    s += String.fromCharCode(0x4e00 + (state % 0x5000));
  }
  return s;
}
