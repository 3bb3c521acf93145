package codec

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/override"
)

// Sample texts for round trips and benchmarks, written for this package.
// Each is plain prose of the kind found on web pages in its language.
const (
	textEnglish = `The harbour town wakes early. Before six the bakery on Mill Street has its shutters up, ` +
		`and the smell of bread drifts down to the quay where the ferry waits. Fishermen check their nets, ` +
		`a bus turns in the square, and a dog follows the postman from door to door. By nine the cafés ` +
		`are full: tourists study maps, students argue about football, and an old man reads yesterday's ` +
		`paper for the third time. "Nothing ever happens here," he says, and smiles.` + "\n"

	textFrench = `Le marché de la place centrale ouvre à l'aube. On y trouve des légumes frais, du fromage ` +
		`affiné, des fleurs et même quelques livres d'occasion. Les habitués saluent le boulanger, ` +
		`goûtent les pêches et discutent du prix des cerises. « Ça ne coûte pas cher », dit une dame âgée, ` +
		`et elle remplit son panier. À midi, tout est rangé ; il ne reste que le bruit de la fontaine.` + "\n"

	textRussian = `Утром в маленьком городе всё начинается с булочной. Уже в шесть часов пекарь открывает ` +
		`ставни, и запах свежего хлеба разносится по улице до самой пристани. Рыбаки проверяют сети, ` +
		`автобус медленно поворачивает на площади, а почтальон разносит письма. К девяти часам в кафе ` +
		`не найти свободного места: туристы изучают карты, студенты спорят о футболе, а пожилой ` +
		`мужчина в третий раз перечитывает вчерашнюю газету. «Здесь никогда ничего не происходит», — ` +
		`говорит он и улыбается.` + "\n"

	textJapanese = `港町の朝は早い。六時前にはパン屋がシャッターを上げ、焼きたてのパンの香りが船着き場まで` +
		`漂ってくる。漁師たちは網を確かめ、バスが広場をゆっくりと曲がり、郵便配達員が一軒ずつ手紙を届けていく。` +
		`九時になると喫茶店は満席で、観光客は地図を広げ、学生たちはサッカーの話で盛り上がる。` +
		`窓際の老人は昨日の新聞を三度目に読み返しながら、「ここでは何も起こらないね」と言って笑った。` + "\n"

	textChinese = `港口小镇的早晨来得很早。六点以前，面包店就拉起了卷帘门，新鲜面包的香味一直飘到码头。` +
		`渔民们检查渔网，公共汽车慢慢地在广场上转弯，邮递员挨家挨户地送信。到了九点，咖啡馆里座无虚席：` +
		`游客们研究地图，学生们争论足球，一位老人第三次读着昨天的报纸。他说：“这里什么事也不会发生。”然后笑了。` + "\n"

	textTraditionalChinese = `港口小鎮的早晨來得很早。六點以前，麵包店就拉起了捲簾門，新鮮麵包的香味一直飄到碼頭。` +
		`漁民們檢查漁網，公共汽車慢慢地在廣場上轉彎，郵差挨家挨戶地送信。到了九點，咖啡館裡座無虛席：` +
		`遊客們研究地圖，學生們爭論足球，一位老人第三次讀著昨天的報紙。他說：「這裡什麼事也不會發生。」然後笑了。` + "\n"

	textKorean = `항구 마을의 아침은 일찍 시작된다. 여섯 시가 되기 전에 빵집은 셔터를 올리고, 갓 구운 빵 냄새가 ` +
		`부두까지 퍼진다. 어부들은 그물을 살피고, 버스는 광장을 천천히 돌며, 집배원은 집집마다 편지를 ` +
		`전한다. 아홉 시가 되면 카페는 빈자리가 없다. 관광객들은 지도를 보고, 학생들은 축구 이야기로 ` +
		`떠들며, 한 노인은 어제 신문을 세 번째 읽는다. "여기서는 아무 일도 일어나지 않아요." 그가 웃으며 말한다.` + "\n"

	textGreek = `Το λιμάνι ξυπνά νωρίς. Πριν από τις έξι ο φούρνος ανοίγει και η μυρωδιά του ψωμιού φτάνει ` +
		`ως την προκυμαία. Οι ψαράδες ελέγχουν τα δίχτυα τους και ο ταχυδρόμος μοιράζει τα γράμματα.` + "\n"

	textCzech = `Přístavní městečko se probouzí brzy. Ještě před šestou otevírá pekárna a vůně čerstvého ` +
		`chleba se line až k přístavišti. Rybáři kontrolují sítě a pošťák roznáší dopisy dům od domu.` + "\n"

	textHebrew = `העיירה שליד הנמל מתעוררת מוקדם. לפני שש המאפייה כבר פתוחה, וריח הלחם הטרי מגיע עד הרציף.` + "\n"

	textArabic = `تستيقظ البلدة الساحلية مبكرًا. قبل السادسة يفتح المخبز، وتصل رائحة الخبز الطازج إلى الرصيف.` + "\n"

	textThai = `เมืองท่าเล็กๆ ตื่นแต่เช้า ก่อนหกโมงร้านขนมปังก็เปิดแล้ว และกลิ่นขนมปังอบใหม่ลอยไปถึงท่าเรือ` + "\n"

	textTurkish = `Liman kasabası erken uyanır. Saat altıdan önce fırın açılır ve taze ekmeğin kokusu iskeleye kadar yayılır.` + "\n"

	textBaltic = `Ostas pilsētiņa mostas agri. Jau pirms sešiem maiznīca ir atvērta. Uostamiestis pabunda anksti.` + "\n"

	textUkrainian = `Портове містечко прокидається рано. Ще до шостої пекарня відчиняє віконниці, і запах ` +
		`свіжого хліба лине аж до пристані. Ґанок, їжак, є.` + "\n"
)

// textRussianBasic is textRussian without the guillemets and dash that
// IBM866, ISO-8859-5 and KOI8-R lack.
var textRussianBasic = strings.NewReplacer("«", `"`, "»", `"`, " — ", " - ").Replace(textRussian)

// textASCII is the part of textEnglish that is ASCII.
var textASCII = strings.ReplaceAll(textEnglish, "é", "e")

// sampleText returns text of about n bytes made of repetitions of s.
func sampleText(s string, n int) string {
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(s)
	}
	return b.String()
}

// roundTripTexts are the texts that each encoding's encoder can encode in
// full.
var roundTripTexts = map[override.Encoding]string{
	override.UTF8:         textEnglish + textJapanese + textRussian + "😀𝄞",
	override.IBM866:       textRussianBasic,
	override.ISO8859_2:    textCzech,
	override.ISO8859_3:    "Ħal Għargħur, ċirasa, ġnien, ħobż, żejt.\n",
	override.ISO8859_4:    textBaltic[:48],
	override.ISO8859_5:    textRussianBasic,
	override.ISO8859_6:    "تستيقظ البلدة الساحلية مبكرا.\n",
	override.ISO8859_7:    textGreek,
	override.ISO8859_8:    textHebrew,
	override.ISO8859_8I:   textHebrew,
	override.ISO8859_10:   "Þórshöfn, Ålesund, Þingvellir, ŋ ŧ ĸ.\n",
	override.ISO8859_13:   textBaltic,
	override.ISO8859_14:   "Ŵ ŵ Ŷ ŷ ẁ ẃ ḃ ḋ ḟ ṁ ṗ ṡ ṫ: Aberystwyth, Caerdydd.\n",
	override.ISO8859_15:   textFrench + "€ œ Œ Ÿ š ž.\n",
	override.ISO8859_16:   "Țară, șosea, învățătură, ăâî. " + textFrench,
	override.KOI8R:        textRussianBasic,
	override.KOI8U:        textUkrainian,
	override.Macintosh:    textFrench,
	override.Windows874:   textThai,
	override.Windows1250:  textCzech,
	override.Windows1251:  textRussian + textUkrainian,
	override.Windows1252:  textEnglish + textFrench,
	override.Windows1253:  textGreek,
	override.Windows1254:  textTurkish,
	override.Windows1255:  textHebrew,
	override.Windows1256:  textArabic,
	override.Windows1257:  textBaltic,
	override.Windows1258:  "Thi\u0323 trâ\u0301n ca\u0309ng thư\u0301c dâ\u0323y sơ\u0301m.\n",
	override.XMacCyrillic: textRussian,
	override.GBK:          textChinese,
	override.GB18030:      textChinese + "😀𝄞",
	override.Big5:         textTraditionalChinese,
	override.EUCJP:        textJapanese,
	override.ISO2022JP:    textJapanese,
	override.ShiftJIS:     textJapanese,
	override.EUCKR:        textKorean,
	override.UTF16BE:      textEnglish + textJapanese + "😀𝄞",
	override.UTF16LE:      textEnglish + textJapanese + "😀𝄞",
	override.XUserDefined: textASCII + "\uF780\uF7FF",
}

func TestRoundTrip(t *testing.T) {
	for _, e := range override.All() {
		if e == override.Replacement {
			continue // No encoder.
		}
		t.Run(e.Name(), func(t *testing.T) {
			text, ok := roundTripTexts[e]
			if !ok {
				t.Fatalf("no text for %v", e)
			}
			enc, err := Encoding(e).NewEncoder().String(text)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if e.ASCIICompatible() && enc == text && e != override.UTF8 && e != override.XUserDefined {
				t.Fatalf("encode(%q) is unchanged: the text does not exercise %v", text, e)
			}
			got, err := Encoding(e).NewDecoder().String(enc)
			if err != nil || got != text {
				t.Errorf("decode(encode(text)) =\n%q, %v\nwant\n%q", got, err, text)
			}
		})
	}
}
