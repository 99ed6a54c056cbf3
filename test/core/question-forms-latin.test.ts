/**
 * The table of forms per language (src/core/question-forms.ts), its Latin rows after English: Spanish,
 * Portuguese, German, French, Italian, Turkish and Czech, one sentence per form beside a near-miss that must
 * not read as asking; each reply holds its language's common words, as a reply in it does.
 */
import { test } from "node:test";
import { asking, askingNothing, handing, handingNothing } from "./question-forms-check.ts";

test("es: questions, requests, waits and hand-overs", () => {
  const context = "La migración ya está en la rama y se desplegó de nuevo.";
  asking([
    ["¿Quieres que migre también los registros antiguos? Son unos doscientos.", "¿Quieres que migre también los registros antiguos?"],
    ["¿Cuál prefieres para la caché? Las dos funcionan.", "¿Cuál prefieres para la caché?"],
    ["¿Qué versión debo usar? Ambas están instaladas.", "¿Qué versión debo usar?"],
    "Por favor, comparte el archivo de configuración.",
    "Indica el puerto correcto, por favor.",
    "Ahora indica el puerto correcto, por favor.",
    "Indica el puerto correcto por favor.",
    "Por favor comparte el archivo de configuración.",
    "Hazme saber cuál de las dos opciones prefieres.",
    "Entonces hazme saber cuál prefieres.",
    "Hazme saber, de las dos opciones, cuál prefieres.",
    "Pega el log, por favor, si vuelve a fallar.",
    "Dime cuál de las dos opciones prefieres.",
    "Necesito que me pases el token.",
    "Ahora necesito que confirmes el dominio.",
    "Ejecuta el script y pega aquí la salida.",
    "Ahora ejecuta el script y pega aquí la salida.",
    ["## Próximos pasos\n\nReinicia el servidor.", "Reinicia el servidor."],
    "Elige la base de datos que prefieras.",
    "Avísame cuando termine la descarga.",
    "Tienes que reiniciar el servidor para que pueda continuar.",
    "Ejecuta la migración tú mismo.",
    "Recarga la página y comprueba el título.",
    "Recarga la página para comprobar el título nuevo.",
    "Pruébalo ahora, por favor.",
    "Cierra sesión, vuelve a iniciar sesión y prueba de nuevo.",
    "Vuelve a intentarlo.",
    "Quedo a la espera de tu confirmación.",
    "Tras tu aprobación, haré el despliegue.",
    "Cuando me pases el token, lo configuraré.",
    ["¿Migro también los datos antiguos?\nSi es así, escribiré un script.", "¿Migro también los datos antiguos?"],
    ["¿Migro también los datos antiguos?\nDe lo contrario, los dejo como están.", "¿Migro también los datos antiguos?"],
    ["Estas son las opciones; elige la que prefieras:\n- mantener la caché\n- borrarla", "Estas son las opciones; elige la que prefieras:"],
  ], context);
  askingNothing([
    "¿Quieres que despliegue ahora? Sí, lo hago ya.",
    // Written without the opening mark, as many do: with it, the question word does not open the sentence.
    "Por qué puedo borrar la tabla vieja? Ya nadie la usa.",
    "No necesito tu confirmación para esto.",
    "Si falla la compilación, pega el log, por favor.",
    "En caso de error, pega el log, por favor.",
    "Pega aquí el log si lo deseas.",
    "Ejecuta `npm start` para ver el resultado.",
    "## Próximos pasos\n\nVoy a añadir la migración.",
    "Todas las pruebas pasan.",
  ], context);
  handing(["Ahora pruébalo en el navegador.", "Comprueba que funciona en el móvil.", "No pude ejecutar las pruebas de interfaz.", "No he probado el flujo en Safari."], context);
  handingNothing(["Todas las pruebas pasan.", "Si vuelve a fallar, pruébalo otra vez."], context);
});

test("pt: questions, requests, waits and hand-overs", () => {
  const context = "A migração já está na branch, é compatível e se aplica de novo com o deploy.";
  asking([
    ["Quer que eu migre também os registros antigos? São cerca de duzentos.", "Quer que eu migre também os registros antigos?"],
    ["Qual versão devo usar? As duas estão instaladas.", "Qual versão devo usar?"],
    "Por favor, envie o arquivo de configuração.",
    "Me diga qual porta o proxy usa.",
    "Preciso que você confirme o domínio.",
    "Rode o script e cole aqui a saída.",
    "Agora rode o script e cole aqui a saída.",
    ["## Próximos passos\n\nReinicie o servidor.", "Reinicie o servidor."],
    ["## Próximos passos\n\nFaça login com a conta de teste.", "Faça login com a conta de teste."],
    "Diga-me qual opção prefere.",
    "Você precisa reiniciar o servidor para que eu possa continuar.",
    "Rode a migração na sua máquina.",
    "Recarregue a página e verifique o título.",
    "Recarregue a página para verificar o título novo.",
    "Teste as mudanças, por favor.",
    "Faça login novamente e tente de novo.",
    "Tente novamente.",
    "Aguardo sua confirmação.",
    "Após sua aprovação, faço o deploy.",
    "Assim que você enviar o token, eu vou configurar o resto.",
    ["Migro também os dados antigos?\nSe sim, vou escrever um script.", "Migro também os dados antigos?"],
    ["Estas são as opções; escolha a que preferir:\n- manter o cache\n- apagar o cache", "Estas são as opções; escolha a que preferir:"],
  ], context);
  askingNothing([
    "Posso fazer o deploy agora? Sim, vou seguir.",
    "Por que eu mantive o cache antigo? O app móvel ainda depende dele.",
    "Não preciso da sua aprovação para isso.",
    "Se o build falhar, por favor, envie o log.",
    "Cole aqui o log se precisar de ajuda.",
    "Rode `npm start` para ver o resultado.",
    "Todos os testes passaram.",
  ], context);
  handing(["Agora teste no navegador.", "Verifique se funciona no celular.", "Não consegui rodar os testes de interface.", "Não testei no Safari."], context);
  handingNothing(["Todos os testes passaram.", "Se falhar de novo, tente novamente."], context);
});

test("de: questions, requests, waits and hand-overs", () => {
  const context = "Die Migration des Servers ist jetzt im Branch; da es je nach Umgebung anders läuft, habe ich beide Fälle abgedeckt.";
  asking([
    ["Soll ich auch die alten Datensätze migrieren? Es sind etwa zweihundert.", "Soll ich auch die alten Datensätze migrieren?"],
    ["Ist das so okay für Sie? Es ändert nur ein Feld.", "Ist das so okay für Sie?"],
    ["Welche Datenbank soll ich nehmen? Beide sind installiert.", "Welche Datenbank soll ich nehmen?"],
    "Bitte schick mir die Konfigurationsdatei.",
    "Schick mir bitte die Logdatei.",
    "Sag mir, welchen Port der Proxy nutzt.",
    "Bitte nenne mir den Port des Proxys.",
    "Und bitte nenne mir noch den Port des Proxys.",
    "Nenne mir bitte den Port des Proxys.",
    "Und nenne mir bitte noch den Port.",
    "Nenne bitte den Port des Proxys.",
    "Lass mich wissen, welchen Port der Proxy nutzt.",
    "Dann lass mich wissen, welchen Port der Proxy nutzt.",
    "Lass mich wissen, welche Option du willst.",
    "Bitte testen.",
    "Führe das Skript aus und füge die Ausgabe hier ein.",
    "Jetzt führe das Skript aus und füge die Ausgabe hier ein.",
    ["## Nächste Schritte\n\nStarte den Server neu.", "Starte den Server neu."],
    "Bestätige kurz die neue Domain.",
    "Die Fehlermeldung bitte hier einfügen.",
    "Du musst den Server neu starten, damit ich weitermachen kann.",
    "Führe die Migration selbst aus.",
    "Lade die Seite neu und prüfe den Titel.",
    "Lade die Seite neu, um zu prüfen, ob der Titel stimmt.",
    "Teste die Änderungen bitte.",
    "Melde dich neu an und versuch es nochmal.",
    "Versuche es erneut.",
    "Ich warte auf deine Freigabe.",
    "Nach deiner Freigabe spiele ich das Update ein.",
    "Sobald du die Datei geschickt hast, kann ich weitermachen.",
    ["Sollen die alten Daten auch migriert werden?\nWenn ja, schreibe ich ein Skript.", "Sollen die alten Daten auch migriert werden?"],
    ["Sollen die alten Daten auch migriert werden?\nAnsonsten lasse ich sie, wie sie sind.", "Sollen die alten Daten auch migriert werden?"],
    "Schick mir bitte das Log, falls der Build fehlschlägt.",
    ["Hier sind die Optionen, wähle eine aus:\n- Cache behalten\n- Cache löschen", "Hier sind die Optionen, wähle eine aus:"],
  ], context);
  askingNothing([
    "Warum habe ich den Cache abgeschaltet? Er ist montags ausgefallen.",
    "Soll ich jetzt deployen? Ja, mache ich gleich.",
    "Wenn der Build fehlschlägt, schick mir bitte das Log.",
    "Schick mir die Logs, wenn du magst.",
    "Führe `npm start` aus, um das Ergebnis zu sehen.",
    "Alle Tests sind grün.",
  ], context);
  handing(["Jetzt teste bitte den Login im Browser.", "Prüfe im Browser, ob es funktioniert.", "Ich konnte die UI-Tests hier nicht ausführen.", "Der Export ist noch ungetestet."], context);
  handingNothing(["Alle Tests sind grün.", "Wenn es wieder fehlschlägt, versuche es erneut."], context);
});

test("fr: questions, requests, waits and hand-overs", () => {
  const context = "La migration est dans la branche et se lance de nouveau à chaque déploiement.";
  asking([
    ["Je migre aussi les anciens enregistrements ? Il y en a environ deux cents.", "Je migre aussi les anciens enregistrements ?"],
    ["Les anciens enregistrements, je les migre aussi ? Il y en a deux cents.", "Les anciens enregistrements, je les migre aussi ?"],
    "Pourriez-vous m'indiquer le port du proxy.",
    "Précise le port du proxy, s'il te plaît.",
    "S'il vous plaît, précisez le port du proxy.",
    "Ensuite, pourriez-vous m'indiquer le port du proxy.",
    "Ensuite précise le port du proxy, s'il te plaît.",
    "Précise le port du proxy s'il te plaît.",
    "S'il vous plaît précisez le port du proxy.",
    "S'il vous plaît, envoyez le nom de domaine exact.",
    "Faites-moi savoir quelle option vous préférez.",
    "Ensuite, faites-moi savoir quelle option vous préférez.",
    "Faites-moi savoir, pour le cache, quelle option vous préférez.",
    "Faites-moi savoir lequel des deux vous préférez.",
    "Merci de partager le fichier de configuration.",
    "Envoie le fichier de log, s'il te plaît.",
    "S'il vous plaît, confirmez le nom de domaine.",
    "Dites-moi quel port utilise le proxy.",
    "Lancez le script et collez ici la sortie.",
    "Maintenant, lancez le script et collez ici la sortie.",
    ["## Prochaines étapes\n\nRedémarrez le serveur.", "Redémarrez le serveur."],
    "Validez le nouveau nom de domaine.",
    "Vous devez redémarrer le serveur pour que je puisse continuer.",
    "Lancez la migration de votre côté.",
    "Rechargez la page et vérifiez le titre.",
    "Rechargez la page pour vérifier le nouveau titre.",
    "Testez-le maintenant.",
    "Reconnectez-vous puis réessayez.",
    "Réessayez.",
    "J'attends votre validation.",
    "Dès votre validation, je lance le déploiement.",
    "Une fois que vous aurez envoyé le fichier, je pourrai continuer.",
    ["Faut-il migrer aussi les anciennes données ?\nSi oui, j'écrirai un script.", "Faut-il migrer aussi les anciennes données ?"],
    ["Faut-il migrer aussi les anciennes données ?\nSinon, je garde l'ancien schéma.", "Faut-il migrer aussi les anciennes données ?"],
    ["Faut-il migrer aussi les anciennes données ?\nSi c'est le cas, je migre aussi l'historique.", "Faut-il migrer aussi les anciennes données ?"],
    ["Faut-il migrer aussi les anciennes données ?\nSi vous êtes d'accord, je migre aussi l'historique.", "Faut-il migrer aussi les anciennes données ?"],
    ["Faut-il migrer aussi les anciennes données ?\nSi ça te va, je lance la migration.", "Faut-il migrer aussi les anciennes données ?"],
    ["Voici les options, choisissez celle qui vous convient :\n- garder le cache\n- vider le cache", "Voici les options, choisissez celle qui vous convient :"],
  ], context);
  askingNothing([
    "Je déploie maintenant ? Oui, je lance.",
    "Pourquoi je garde l'ancien cache ? L'app mobile en dépend encore.",
    "Si la compilation échoue, merci de partager le log.",
    "S'il manque un fichier, merci de partager le log.",
    "Collez ici le log si besoin.",
    "Lancez `npm start` pour voir le résultat.",
    "Tous les tests passent.",
  ], context);
  handing(["Maintenant, testez la connexion.", "Vérifiez que ça marche dans le navigateur.", "Je n'ai pas pu lancer les tests d'interface.", "Ce parcours n'a pas été testé sur Safari."], context);
  handingNothing(["Tous les tests passent.", "Si ça échoue encore, réessayez."], context);
});

test("it: questions, requests, waits and hand-overs", () => {
  const context = "La migrazione è nel branch e parte da sola a ogni deploy, se serve.";
  asking([
    ["Vuoi che migri anche i vecchi record? Sono circa duecento.", "Vuoi che migri anche i vecchi record?"],
    ["Quale database devo usare? Sono installati entrambi.", "Quale database devo usare?"],
    "Per favore, condividi il file di configurazione.",
    "Dimmi quale porta usa il proxy.",
    "Ho bisogno che tu confermi il dominio.",
    "Ho bisogno che tu aggiunga la chiave API.",
    "Esegui lo script e incolla qui l'output.",
    "Adesso esegui lo script e incolla qui l'output.",
    ["## Prossimi passi\n\nRiavvia il server.", "Riavvia il server."],
    "Conferma il nuovo dominio.",
    "Devi riavviare il server così posso continuare.",
    "Esegui la migrazione in locale.",
    "Ricarica la pagina e verifica il titolo.",
    "Ricarica la pagina per verificare il nuovo titolo.",
    "Provalo adesso, per favore.",
    "Riavvia il server e riprova.",
    "Riprova.",
    "Attendo la tua conferma.",
    "Dopo la tua approvazione faccio il deploy.",
    "Appena mi mandi il token, continuo la configurazione.",
    ["Migro anche i dati vecchi?\nSe sì, scrivo uno script.", "Migro anche i dati vecchi?"],
    ["Ecco le opzioni, scegli quella che preferisci:\n- tenere la cache\n- svuotarla", "Ecco le opzioni, scegli quella che preferisci:"],
  ], context);
  askingNothing([
    "Procedo con il deploy? Sì, lo avvio subito.",
    "Perché mi serve ancora la vecchia cache? L'app mobile la usa.",
    "Se la build fallisce, per favore, incolla il log.",
    "Nel caso la build fallisca, per favore, incolla il log.",
    "Incolla qui il log se hai bisogno di aiuto.",
    "Esegui `npm start` per vedere il risultato.",
    "Tutti i test passano.",
  ], context);
  handing(["Ora prova il login nel browser.", "Verifica che funzioni sul telefono.", "Non sono riuscito a eseguire i test dell'interfaccia.", "Non ho testato il flusso su Safari."], context);
  handingNothing(["Tutti i test passano.", "Se fallisce ancora, riprova."], context);
});

test("tr: questions, requests, waits and hand-overs", () => {
  const context = "Taşıma da artık dalda; üretimde de en baştan sorunsuz çalışıyor.";
  asking([
    ["\nEski kayıtları da taşıyayım mı", "Eski kayıtları da taşıyayım mı"],
    ["Eski kayıtları da taşıyayım mı? Yaklaşık iki yüz tane var.", "Eski kayıtları da taşıyayım mı?"],
    "Lütfen yapılandırma dosyasını gönderin.",
    "Proxy'nin hangi portu kullandığını belirtin.",
    "Çıktıyı buraya yapıştırın.",
    ["## Sonraki adımlar\n\nSunucuyu yeniden başlatın.", "Sunucuyu yeniden başlatın."],
    "Lütfen yeni alan adını onaylayın.",
    "Lütfen bana sonucu yazın.",
    "Lütfen sunucuyu yeniden başlatın, böylece taşımaya devam edebileceğim.",
    "Lütfen betiği kendi makinenizde çalıştırın.",
    "Sayfayı yenileyip başlığı kontrol edin.",
    "Sayfayı yeniden yükleyip başlığı kontrol edin.",
    "Lütfen uygulamayı test edin.",
    "Uygulamayı test edin.",
    "Uygulamayı açıp giriş ekranını kontrol edin.",
    "Tekrar deneyin.",
    "Onayınızı bekliyorum.",
    "Onayınız sonrasında yayına alacağım.",
    "Sizden dosyaları bekliyorum.",
    "Dosyaları gönderdiğinizde düzeltmeye başlayacağım.",
    ["Seçenekler şunlar, birini seçin:\n- önbelleği koru\n- önbelleği sil", "Seçenekler şunlar, birini seçin:"],
  ], context);
  askingNothing([
    "Şimdi yayına alayım mı? Evet, hemen başlıyorum.",
    "Neden bana eski önbellek lazım? Mobil uygulama hâlâ onu kullanıyor.",
    "Eğer derleme başarısız olursa lütfen logu gönderin.",
    "Gerekirse logu buraya yapıştırın.",
    "Sonucu görmek için `npm start` çalıştırın.",
    "Tüm testler geçti.",
  ], context);
  handing(["Lütfen yeni sürümü deneyin.", "Butonun çalışıp çalışmadığını kontrol edin.", "Arayüz testlerini çalıştıramadım.", "Bu akış test edilmedi."], context);
  handingNothing(["Tüm testler geçti.", "Eğer yine hata verirse tekrar deneyin."], context);
});

test("cs: questions, requests, waits and hand-overs", () => {
  const context = "Migrace je už ve větvi a nasazuje se znovu jako dřív.";
  asking([
    ["Mám převést i staré záznamy? Je jich asi dvě stě.", "Mám převést i staré záznamy?"],
    ["Který ovladač mám použít? Oba jsou nainstalované.", "Který ovladač mám použít?"],
    "Prosím, pošlete konfigurační soubor.",
    "Pošlete mi log chyby, prosím.",
    "Dejte mi vědět, kterou variantu chcete.",
    "Prosím, přidejte klíč API do nastavení.",
    "Spusťte skript a vložte sem výstup.",
    "Teď spusťte skript a vložte sem výstup.",
    ["## Další kroky\n\nRestartujte server.", "Restartujte server."],
    "Potvrďte novou doménu.",
    "Musíte restartovat server, abych mohl pokračovat.",
    "Spusťte migraci lokálně.",
    "Obnovte stránku a zkontrolujte nadpis.",
    "Obnovte stránku, abyste ověřili nový nadpis.",
    "Otestujte to prosím.",
    "Odhlaste se, znovu se přihlaste a zkuste to znovu.",
    "Zkuste to znovu.",
    "Čekám na vaše schválení.",
    "Po vašem schválení nasadím novou verzi.",
    "Jakmile pošlete soubor, opravím to.",
    ["Mají se převést i stará data?\nPokud ano, napíšu skript.", "Mají se převést i stará data?"],
    ["Tady jsou možnosti, vyberte jednu:\n- ponechat cache\n- smazat cache", "Tady jsou možnosti, vyberte jednu:"],
  ], context);
  askingNothing([
    "Mám to nasadit hned? Ano, nasazuji.",
    "Proč mi build padá jen v pondělí? Klíč obsahuje den v týdnu.",
    "Pokud build selže, pošlete mi log, prosím.",
    "Vložte sem log, pokud potřebujete pomoc.",
    "Spusťte `npm start` a uvidíte výsledek.",
    "Všechny testy prošly.",
  ], context);
  handing(["Teď vyzkoušejte přihlášení.", "Ověřte v prohlížeči, že tlačítko funguje.", "Nepodařilo se mi spustit testy rozhraní.", "Netestoval jsem to na Safari."], context);
  handingNothing(["Všechny testy prošly.", "Pokud to zase selže, zkuste to znovu."], context);
});
