import type { ErrorTranslation } from './error-translation.js';

/** The `errors` namespace in fr-CA: one text per {@link ErrorCode}, i18next `{{name}}` interpolation. */
export const errorsFrCA = {
  required: 'Ce champ est obligatoire.',
  fieldRequired: '{{field}} est obligatoire.',
  currentPasswordRequired: 'Le mot de passe actuel est obligatoire.',
  newPasswordRequired: 'Le nouveau mot de passe est obligatoire.',
  passwordRequirements: 'Le mot de passe ne respecte pas les exigences.',
  passwordsMustMatch: 'Les mots de passe doivent correspondre.',
  passwordTooShort: 'Le mot de passe doit comporter au moins {{n}} caractères.',
  passwordTooLong: 'Le mot de passe doit comporter au plus {{n}} caractères.',
  passwordCharacterClasses:
    'Doit contenir au moins une majuscule, une minuscule, un chiffre et un caractère spécial.',
  passwordConsecutive: 'Ne doit pas contenir plus de {{n}} caractères consécutifs.',
  passwordInvalidCharacters: 'Ne doit pas contenir de caractères non valides.',
  passwordCommon:
    'Ce mot de passe est trop courant ou a paru dans une fuite de données. Choisissez-en un autre.',
  passwordMustDiffer: 'Le nouveau mot de passe doit être différent du mot de passe actuel.',
  currentPasswordIncorrect: 'Le mot de passe actuel est incorrect.',
  invalidEmail: 'Doit être une adresse courriel valide.',
  emailRequired: 'Le courriel est un champ obligatoire.',
  invalidValue: 'Cette valeur n’est pas valide.',
  validationProblem: 'Une ou plusieurs erreurs de validation se sont produites.',
  validationFailed: 'Une ou plusieurs erreurs de validation sont survenues.',
  sessionTimedOut: 'Votre session a expiré. Veuillez réessayer.',
  deviceRegistrationError:
    'Un problème est survenu lors de l’enregistrement de votre clé d’accès. Veuillez réessayer plus tard.',
  passwordExpired: 'Votre mot de passe a expiré. Choisissez-en un nouveau pour continuer.',
  loggedOutInactivity: 'Vous avez été déconnecté après une période d’inactivité.',
  loggedOut: 'Vous vous êtes déconnecté.',
  capsLockOn: 'Le verrouillage des majuscules est activé',
  secureSignInFailed:
    'Nous n’avons pas pu vérifier votre identité ou la clé d’accès utilisée. Réessayez ou connectez-vous avec votre nom d’utilisateur.',
  invalidCredentials: 'Le nom d’utilisateur ou le mot de passe est incorrect.',
  tooManyAttempts: 'Trop de tentatives. Veuillez patienter un moment et réessayer.',
  accountDisabled: 'Le nom d’utilisateur ou le mot de passe est incorrect.',
  antiforgeryInvalid: 'Votre demande n’a pas pu être vérifiée. Veuillez recharger la page et réessayer.',
  invalidReturnUrl: 'L’adresse de retour n’est pas autorisée.',
  localLoginNotAllowed: 'La connexion par mot de passe n’est pas autorisée ici.',
  notAuthenticated: 'Vous devez d’abord vous connecter.',
  stepNotAllowed: 'Cette étape n’est pas disponible maintenant. Veuillez recommencer la connexion.',
  captchaRequired: 'Veuillez confirmer que vous êtes une personne pour continuer.',
  captchaInvalid: 'La vérification n’a pas réussi. Veuillez réessayer.',
  invalidCode: 'Le code n’est pas valide ou a expiré. Vérifiez-le et réessayez.',
  reauthenticationRequired:
    'Pour votre sécurité, reconnectez-vous avant de modifier vos paramètres de vérification en deux étapes.',
  recentSignInRequired: 'Pour votre sécurité, reconnectez-vous pour effectuer cette modification.',
  secondFactorRequired:
    'La console d’administration exige la vérification en deux étapes ou une clé d’accès sur votre compte. Configurez-en une dans les paramètres de sécurité de votre compte, puis réessayez.',
  confirmItsYouPasswordFirst: 'Entrez d’abord votre mot de passe.',
  confirmItsYouCancelled: 'La modification n’a pas été faite, car vous n’avez pas confirmé votre identité.',
  emailUnchanged: 'C’est déjà votre adresse courriel.',
  emailNotAvailable: 'Cette adresse courriel ne peut pas être utilisée. Choisissez-en une autre.',
  emailChangeLinkInvalid:
    'Ce lien n’est pas valide ou a expiré. Demandez-en un nouveau à partir de la page de votre compte.',
  twoStepMethodExists:
    'Cette méthode est déjà configurée. Pour en utiliser une nouvelle à la place, choisissez de la remplacer.',
  lastTwoStepMethodRequired:
    'La vérification en deux étapes est obligatoire pour votre compte : sa dernière méthode ne peut donc pas être retirée. Ajoutez d’abord une autre méthode.',
  vendorCredentialsOnly:
    'Votre compte se connecte par le fournisseur de votre entreprise. Son mot de passe et sa vérification en deux étapes sont gérés là-bas.',
  recoveryCodesUnavailable:
    'Ces codes de récupération ont déjà été affichés ou ont expiré. Générez-en de nouveaux.',
  invalidPhoneNumber: 'Entrez le numéro de téléphone avec l’indicatif du pays, par exemple +1 514 555 0123.',
  codeNotSent: 'Nous n’avons pas pu envoyer le code. Réessayez dans quelques minutes.',
  oneTimeLinkInvalid:
    'Ce lien de connexion n’est pas valide, a expiré ou a déjà été utilisé. Demandez un nouveau code.',
  oneTimeLinkOtherBrowser:
    'Ce lien de connexion ne fonctionne que dans le navigateur où le code a été demandé. Ouvrez-le dans ce navigateur ou saisissez-y le code.',
  badRequest: 'Requête incorrecte',
  unauthorized: 'Non autorisé',
  forbidden: 'Interdit',
  notFound: 'Introuvable',
  internalServerError: 'Erreur interne du serveur',
  badGateway: 'Passerelle incorrecte',
  serviceUnavailable: 'Service indisponible',
  genericError: 'Erreur générique',
  unexpectedError: 'Une erreur s’est produite. Veuillez réessayer.',
  offline: 'Vous êtes hors ligne. Une connexion réseau est nécessaire.',
  releaseUnknownVersion: 'Ce module distant n’a aucune version publiée de ce nom.',
  releaseIncompatible:
    '{{remote}} {{version}} exige {{package}} {{required}}; le shell fournit {{package}} {{provided}}.',
  releaseAlreadyActive: 'Cette version est déjà la version active.',
  releaseNoCanary: 'Aucun canari n’est en cours pour ce module distant.',
  releaseNoEarlierVersion: 'Ce module distant n’a aucune version antérieure à laquelle revenir.',
  // console grants (issue 52, ADR 0063)
  grantUnknownUser: 'Aucun compte n’a ce nom d’utilisateur.',
  grantUnknownPartner: 'Il n’y a aucun partenaire avec cet identifiant.',
  grantUnknownCustomer: 'Il n’y a aucun client avec cet identifiant.',
  grantGlobalRole: 'Ce rôle s’applique partout : laissez le partenaire et le client vides.',
  grantPartnerRequired: 'Le soutien a besoin du partenaire dont il aide les personnes.',
  grantSupportTakesNoCustomer: 'Le soutien vise un partenaire entier : laissez le client vide.',
  grantCustomerRequired: 'Un administrateur client a besoin du client qu’il administre.',
  grantCustomerOfAnotherPartner: 'Ce client appartient à un autre partenaire.',
  grantAlreadyGranted: 'Ce compte détient déjà cette autorisation.',
  grantNotGranted: 'Ce compte ne détient aucune autorisation de ce type.',
  grantLastPlatformAdmin: 'C’est le dernier administrateur de la plateforme : nommez-en d’abord un autre.',
  grantBeyondOwn: 'Vous ne pouvez accorder que ce que vous détenez vous-même, là où vous le détenez.',
  // partners and applications in the console (issue 52, ADR 0062)
  partnerLogoTooLarge: 'Le logo doit faire au plus {{max}} Ko.',
  partnerLogoType: 'Le logo doit être une image PNG, JPEG, WebP ou SVG.',
  partnerLogoScript:
    'Un logo SVG ne doit contenir ni script, ni gestionnaire d’événement, ni contenu intégré.',
  partnerLanguageUntranslated: 'Les pages de connexion n’ont pas de traduction en {{language}}.',
  partnerDefaultLanguageNotOffered: 'La langue par défaut doit faire partie des langues offertes.',
  partnerPasswordMinAboveMax:
    'La longueur minimale ({{min}}) ne peut pas dépasser la longueur maximale ({{max}}).',
  partnerCaptchaNeedsKeys: 'reCAPTCHA exige une clé de site et un secret.',
  applicationExists: 'Une application avec cet identifiant client existe déjà.',
  applicationRedirectUri: 'Entrez des adresses http(s) absolues sans fragment, une par ligne.',
  upstreamDiscoveryFailed: 'Le document de découverte du fournisseur n’a pas pu être lu : {{detail}}',
  upstreamRoles:
    'Un fournisseur de prestataire exige au moins un rôle de prestataire; un fournisseur de connexion n’en a aucun.',
  upstreamExists: 'Un fournisseur avec cet identifiant existe déjà.',
  upstreamTokenAuthMethod:
    'Le fournisseur n’indique pas {{method}} parmi ses méthodes d’authentification au point de terminaison des jetons ({{supported}}).',
  upstreamSecretRequired: 'Entrez le secret client : seul private_key_jwt s’en passe.',
  // console audit search (issue 52, ADR 0063)
  auditToBeforeFrom: 'La date de fin ne peut pas précéder la date de début.',
  auditOtherPartner: 'Vous ne pouvez consulter que les événements de votre propre partenaire.',
  // console bulk import, a bad row's reasons (issue 52, ADR 0063)
  importCsvUnclosedQuote: 'Ligne {{row}} : un champ entre guillemets n’est pas fermé.',
  importCsvTextAfterQuote: 'Ligne {{row}} : du texte suit un guillemet fermant.',
  importCsvQuoteInField: 'Ligne {{row}} : un guillemet se trouve dans un champ sans guillemets.',
  importEmpty: 'Le fichier est vide : une ligne d’en-tête est requise.',
  importNoRows: 'Le fichier n’a aucune ligne sous son en-tête.',
  importUnknownColumn:
    'Ligne {{row}} : colonne « {{column}} » inconnue (les colonnes sont id, name, partner, username et roles).',
  importMissingColumn: 'Ligne {{row}} : la colonne « {{column}} » manque.',
  importColumnTwice: 'Ligne {{row}} : la colonne « {{column}} » paraît deux fois.',
  importFieldCount: 'Ligne {{row}} : {{count}} champs, mais l’en-tête en a {{expected}}.',
  importIdEmpty: 'Ligne {{row}} : l’identifiant est vide.',
  importIdTooLong: 'Ligne {{row}} : l’identifiant dépasse {{max}} caractères.',
  importIdCharacters:
    'Ligne {{row}} : l’identifiant « {{id}} » contient une espace ou un caractère de contrôle.',
  importNameEmpty: 'Ligne {{row}} : le nom est vide.',
  importNameTooLong: 'Ligne {{row}} : le nom dépasse {{max}} caractères.',
  importNameCharacters: 'Ligne {{row}} : le nom contient un caractère de contrôle.',
  importUnknownPartner: 'Ligne {{row}} : il n’y a pas de partenaire « {{partner}} ».',
  importUnknownUser: 'Ligne {{row}} : il n’y a pas d’utilisateur « {{username}} ».',
  importRolesWithoutUser: 'Ligne {{row}} : des rôles sont donnés sans nom d’utilisateur.',
  importUnknownRole:
    'Ligne {{row}} : rôle « {{role}} » inconnu (1 à 7, ou EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN).',
  importCustomerExists: 'Ligne {{row}} : le client « {{id}} » existe déjà.',
  importCustomerDiffers:
    'Ligne {{row}} : le client « {{id}} » a un autre nom ou partenaire à la ligne {{earlier}}.',
  importMemberTwice:
    'Ligne {{row}} : « {{username}} » est déjà membre de « {{id}} » dans une ligne précédente.',
  importCustomerTwice: 'Ligne {{row}} : le client « {{id}} » figure déjà à la ligne {{earlier}}.',
} as const satisfies ErrorTranslation;
