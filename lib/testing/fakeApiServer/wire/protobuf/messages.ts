/**
 * Field tables of the Kubernetes protobuf messages the fake API server decodes: for each message,
 * its fields as `jsonName=number:type`. The field numbers are those of k8s.io/api's and
 * apimachinery's generated.proto (facts of the wire format, written out by hand here).
 *
 * Types: `string`, `bool`, `int32`, `int64`, `bytes` (base64 in JSON), `time` (meta/v1 Time),
 * `quantity`, `intstr`, `fieldsV1`, `map<V>` (string keys), `[]T` (repeated), or a message name.
 * A `!` after the name keeps a zero value (Go pointer fields, fields without omitempty); other
 * zero scalars are dropped, as Go's JSON encoder drops them. A `^` before the name inlines the
 * message into its parent (embedded Go structs: `Volume.volumeSource`, `Probe.handler`).
 */
export const MESSAGES: { readonly [message: string]: string } = {
  // apimachinery meta/v1
  ObjectMeta:
    'name=1:string generateName=2:string namespace=3:string selfLink=4:string uid=5:string resourceVersion=6:string generation=7:int64 ' +
    'creationTimestamp=8:time deletionTimestamp=9:time deletionGracePeriodSeconds!=10:int64 labels=11:map<string> annotations=12:map<string> ' +
    'ownerReferences=13:[]OwnerReference finalizers=14:[]string managedFields=17:[]ManagedFieldsEntry',
  OwnerReference: 'apiVersion!=5:string kind!=1:string name!=3:string uid!=4:string controller!=6:bool blockOwnerDeletion!=7:bool',
  ManagedFieldsEntry: 'manager=1:string operation=2:string apiVersion=3:string time=4:time fieldsType=6:string fieldsV1=7:fieldsV1 subresource=8:string',
  LabelSelector: 'matchLabels=1:map<string> matchExpressions=2:[]LabelSelectorRequirement',
  LabelSelectorRequirement: 'key!=1:string operator!=2:string values=3:[]string',

  // core/v1
  Namespace: 'metadata=1:ObjectMeta spec=2:NamespaceSpec status=3:NamespaceStatus',
  NamespaceSpec: 'finalizers=1:[]string',
  NamespaceStatus: 'phase=1:string',
  ConfigMap: 'metadata=1:ObjectMeta immutable!=4:bool data=2:map<string> binaryData=3:map<bytes>',
  Secret: 'metadata=1:ObjectMeta immutable!=5:bool data=2:map<bytes> stringData=4:map<string> type=3:string',
  ServiceAccount: 'metadata=1:ObjectMeta secrets=2:[]ObjectReference imagePullSecrets=3:[]LocalObjectReference automountServiceAccountToken!=4:bool',
  ObjectReference: 'kind=1:string namespace=2:string name=3:string uid=4:string apiVersion=5:string resourceVersion=6:string fieldPath=7:string',
  LocalObjectReference: 'name=1:string',
  Service: 'metadata=1:ObjectMeta spec=2:ServiceSpec status=3:ServiceStatus',
  ServiceSpec:
    'ports=1:[]ServicePort selector=2:map<string> clusterIP=3:string clusterIPs=18:[]string type=4:string externalIPs=5:[]string ' +
    'sessionAffinity=7:string loadBalancerIP=8:string loadBalancerSourceRanges=9:[]string externalName=10:string externalTrafficPolicy=11:string ' +
    'healthCheckNodePort=12:int32 publishNotReadyAddresses=13:bool sessionAffinityConfig=14:SessionAffinityConfig ipFamilies=19:[]string ' +
    'ipFamilyPolicy!=17:string allocateLoadBalancerNodePorts!=20:bool loadBalancerClass!=21:string internalTrafficPolicy!=22:string trafficDistribution!=23:string',
  ServicePort: 'name=1:string protocol=2:string appProtocol!=6:string port!=3:int32 targetPort=4:intstr nodePort=5:int32',
  SessionAffinityConfig: 'clientIP=1:ClientIPConfig',
  ClientIPConfig: 'timeoutSeconds!=1:int32',
  ServiceStatus: 'loadBalancer=1:LoadBalancerStatus',
  LoadBalancerStatus: '',
  Pod: 'metadata=1:ObjectMeta spec=2:PodSpec status=3:PodStatus',
  PodStatus: 'phase=1:string message=3:string reason=4:string hostIP=5:string podIP=6:string qosClass=9:string nominatedNodeName=11:string resize=14:string observedGeneration=17:int64',
  PodTemplateSpec: 'metadata=1:ObjectMeta spec=2:PodSpec',
  PodSpec:
    'volumes=1:[]Volume initContainers=20:[]Container containers=2:[]Container restartPolicy=3:string terminationGracePeriodSeconds!=4:int64 ' +
    'activeDeadlineSeconds!=5:int64 dnsPolicy=6:string nodeSelector=7:map<string> serviceAccountName=8:string serviceAccount=9:string ' +
    'automountServiceAccountToken!=21:bool nodeName=10:string hostNetwork=11:bool hostPID=12:bool hostIPC=13:bool shareProcessNamespace!=27:bool ' +
    'imagePullSecrets=15:[]LocalObjectReference hostname=16:string subdomain=17:string schedulerName=19:string tolerations=22:[]Toleration ' +
    'priorityClassName=24:string priority!=25:int32 runtimeClassName!=29:string enableServiceLinks!=30:bool preemptionPolicy!=31:string ' +
    'setHostnameAsFQDN!=35:bool hostUsers!=37:bool',
  Container:
    'name!=1:string image=2:string command=3:[]string args=4:[]string workingDir=5:string ports=6:[]ContainerPort envFrom=19:[]EnvFromSource ' +
    'env=7:[]EnvVar resources=8:ResourceRequirements restartPolicy!=24:string volumeMounts=9:[]VolumeMount livenessProbe=10:Probe ' +
    'readinessProbe=11:Probe startupProbe=22:Probe terminationMessagePath=13:string terminationMessagePolicy=20:string imagePullPolicy=14:string ' +
    'stdin=16:bool stdinOnce=17:bool tty=18:bool',
  ContainerPort: 'name=1:string hostPort=2:int32 containerPort!=3:int32 protocol=4:string hostIP=5:string',
  EnvVar: 'name!=1:string value=2:string valueFrom=3:EnvVarSource',
  EnvVarSource: 'fieldRef=1:ObjectFieldSelector resourceFieldRef=2:ResourceFieldSelector configMapKeyRef=3:ConfigMapKeySelector secretKeyRef=4:SecretKeySelector',
  ConfigMapKeySelector: '^localObjectReference=1:LocalObjectReference key!=2:string optional!=3:bool',
  SecretKeySelector: '^localObjectReference=1:LocalObjectReference key!=2:string optional!=3:bool',
  ObjectFieldSelector: 'apiVersion=1:string fieldPath!=2:string',
  ResourceFieldSelector: 'containerName=1:string resource!=2:string divisor=3:quantity',
  EnvFromSource: 'prefix=1:string configMapRef=2:ConfigMapEnvSource secretRef=3:SecretEnvSource',
  ConfigMapEnvSource: '^localObjectReference=1:LocalObjectReference optional!=2:bool',
  SecretEnvSource: '^localObjectReference=1:LocalObjectReference optional!=2:bool',
  ResourceRequirements: 'limits=1:map<quantity> requests=2:map<quantity> claims=3:[]ResourceClaim',
  ResourceClaim: 'name!=1:string request=2:string',
  VolumeMount: 'name!=1:string readOnly=2:bool recursiveReadOnly!=7:string mountPath!=3:string subPath=4:string mountPropagation!=5:string subPathExpr=6:string bindMountOptions=8:[]string',
  Volume: 'name!=1:string ^volumeSource=2:VolumeSource',
  VolumeSource:
    'hostPath=1:HostPathVolumeSource emptyDir=2:EmptyDirVolumeSource secret=6:SecretVolumeSource persistentVolumeClaim=10:PersistentVolumeClaimVolumeSource ' +
    'configMap=19:ConfigMapVolumeSource',
  HostPathVolumeSource: 'path!=1:string type!=2:string',
  EmptyDirVolumeSource: 'medium=1:string sizeLimit=2:quantity mode!=3:int32',
  SecretVolumeSource: 'secretName=1:string items=2:[]KeyToPath defaultMode!=3:int32 optional!=4:bool defaultUser!=5:int64',
  ConfigMapVolumeSource: '^localObjectReference=1:LocalObjectReference items=2:[]KeyToPath defaultMode!=3:int32 optional!=4:bool defaultUser!=5:int64',
  KeyToPath: 'key!=1:string path!=2:string mode!=3:int32 user!=4:int64',
  PersistentVolumeClaimVolumeSource: 'claimName!=1:string readOnly=2:bool',
  Probe:
    '^handler=1:ProbeHandler initialDelaySeconds=2:int32 timeoutSeconds=3:int32 periodSeconds=4:int32 successThreshold=5:int32 failureThreshold=6:int32 ' +
    'terminationGracePeriodSeconds!=7:int64',
  ProbeHandler: 'exec=1:ExecAction httpGet=2:HTTPGetAction tcpSocket=3:TCPSocketAction grpc=4:GRPCAction',
  ExecAction: 'command=1:[]string',
  HTTPGetAction: 'path=1:string port!=2:intstr host=3:string scheme=4:string httpHeaders=5:[]HTTPHeader protocol!=6:string',
  HTTPHeader: 'name!=1:string value!=2:string',
  TCPSocketAction: 'port!=1:intstr host=2:string',
  GRPCAction: 'port!=1:int32 service!=2:string mode!=3:string',
  Toleration: 'key=1:string operator=2:string value=3:string effect=4:string tolerationSeconds!=5:int64',

  // apps/v1
  Deployment: 'metadata=1:ObjectMeta spec=2:DeploymentSpec status=3:DeploymentStatus',
  DeploymentSpec:
    'replicas!=1:int32 selector=2:LabelSelector template=3:PodTemplateSpec strategy=4:DeploymentStrategy minReadySeconds=5:int32 ' +
    'revisionHistoryLimit!=6:int32 paused=7:bool progressDeadlineSeconds!=9:int32',
  DeploymentStrategy: 'type=1:string rollingUpdate=2:RollingUpdateDeployment',
  RollingUpdateDeployment: 'maxUnavailable=1:intstr maxSurge=2:intstr',
  DeploymentStatus:
    'observedGeneration=1:int64 replicas=2:int32 updatedReplicas=3:int32 readyReplicas=7:int32 availableReplicas=4:int32 unavailableReplicas=5:int32 ' +
    'terminatingReplicas!=9:int32 collisionCount!=8:int32',

  // batch/v1
  Job: 'metadata=1:ObjectMeta spec=2:JobSpec status=3:JobStatus',
  JobSpec:
    'parallelism!=1:int32 completions!=2:int32 activeDeadlineSeconds!=3:int64 backoffLimit!=7:int32 backoffLimitPerIndex!=12:int32 ' +
    'maxFailedIndexes!=13:int32 selector=4:LabelSelector manualSelector!=5:bool template=6:PodTemplateSpec ttlSecondsAfterFinished!=8:int32 ' +
    'completionMode!=9:string suspend!=10:bool podReplacementPolicy!=14:string managedBy!=15:string',
  JobStatus: 'startTime=2:time completionTime=3:time active=4:int32 succeeded=5:int32 failed=6:int32 completedIndexes=7:string ready!=9:int32 terminating!=11:int32',

  // rbac.authorization.k8s.io/v1
  Role: 'metadata=1:ObjectMeta rules!=2:[]PolicyRule',
  ClusterRole: 'metadata=1:ObjectMeta rules!=2:[]PolicyRule aggregationRule=3:AggregationRule',
  AggregationRule: 'clusterRoleSelectors=1:[]LabelSelector',
  PolicyRule: 'verbs!=1:[]string apiGroups=2:[]string resources=3:[]string resourceNames=4:[]string nonResourceURLs=5:[]string',
  RoleBinding: 'metadata=1:ObjectMeta subjects=2:[]Subject roleRef=3:RoleRef',
  ClusterRoleBinding: 'metadata=1:ObjectMeta subjects=2:[]Subject roleRef=3:RoleRef',
  Subject: 'kind!=1:string apiGroup=2:string name!=3:string namespace=4:string',
  RoleRef: 'apiGroup!=1:string kind!=2:string name!=3:string',

  // authorization/v1 and authentication/v1: the reviews and TokenRequest kubectl's typed clients
  // send (auth can-i, auth whoami, create token). `extra` (map of ExtraValue) is left out: a body
  // with it is refused as undecodable rather than decoded into the wrong JSON shape.
  SelfSubjectAccessReview: 'metadata=1:ObjectMeta spec=2:SelfSubjectAccessReviewSpec status=3:SubjectAccessReviewStatus',
  SelfSubjectAccessReviewSpec: 'resourceAttributes=1:ResourceAttributes nonResourceAttributes=2:NonResourceAttributes',
  SubjectAccessReview: 'metadata=1:ObjectMeta spec=2:SubjectAccessReviewSpec status=3:SubjectAccessReviewStatus',
  LocalSubjectAccessReview: 'metadata=1:ObjectMeta spec=2:SubjectAccessReviewSpec status=3:SubjectAccessReviewStatus',
  SubjectAccessReviewSpec: 'resourceAttributes=1:ResourceAttributes nonResourceAttributes=2:NonResourceAttributes user=3:string groups=4:[]string uid=6:string',
  ResourceAttributes:
    'namespace=1:string verb=2:string group=3:string version=4:string resource=5:string subresource=6:string name=7:string ' +
    'fieldSelector=8:FieldSelectorAttributes labelSelector=9:LabelSelectorAttributes',
  FieldSelectorAttributes: 'rawSelector=1:string requirements=2:[]FieldSelectorRequirement',
  FieldSelectorRequirement: 'key!=1:string operator!=2:string values=3:[]string',
  LabelSelectorAttributes: 'rawSelector=1:string requirements=2:[]LabelSelectorRequirement',
  NonResourceAttributes: 'path=1:string verb=2:string',
  SubjectAccessReviewStatus: 'allowed!=1:bool denied=4:bool reason=2:string evaluationError=3:string',
  SelfSubjectRulesReview: 'metadata=1:ObjectMeta spec=2:SelfSubjectRulesReviewSpec status=3:SubjectRulesReviewStatus',
  SelfSubjectRulesReviewSpec: 'namespace=1:string',
  SubjectRulesReviewStatus: 'resourceRules=1:[]ResourceRule nonResourceRules=2:[]NonResourceRule incomplete!=3:bool evaluationError=4:string',
  ResourceRule: 'verbs=1:[]string apiGroups=2:[]string resources=3:[]string resourceNames=4:[]string',
  NonResourceRule: 'verbs=1:[]string nonResourceURLs=2:[]string',
  SelfSubjectReview: 'metadata=1:ObjectMeta status=2:SelfSubjectReviewStatus',
  SelfSubjectReviewStatus: 'userInfo=1:UserInfo',
  UserInfo: 'username=1:string uid=2:string groups=3:[]string',
  TokenRequest: 'metadata=1:ObjectMeta spec=2:TokenRequestSpec status=3:TokenRequestStatus',
  TokenRequestSpec: 'audiences=1:[]string expirationSeconds!=4:int64 boundObjectRef=3:BoundObjectReference',
  BoundObjectReference: 'kind=1:string apiVersion=2:string name=3:string uid=4:string',
  TokenRequestStatus: 'token=1:string expirationTimestamp=2:time',
};

/** The top-level kinds the fake server decodes from protobuf, by `apiVersion/kind`. */
export const DECODABLE_KINDS: { readonly [apiVersionKind: string]: string } = {
  'v1/Namespace': 'Namespace',
  'v1/ConfigMap': 'ConfigMap',
  'v1/Secret': 'Secret',
  'v1/ServiceAccount': 'ServiceAccount',
  'v1/Service': 'Service',
  'v1/Pod': 'Pod',
  'apps/v1/Deployment': 'Deployment',
  'batch/v1/Job': 'Job',
  'rbac.authorization.k8s.io/v1/Role': 'Role',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'ClusterRoleBinding',
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SubjectAccessReview': 'SubjectAccessReview',
  'authorization.k8s.io/v1/LocalSubjectAccessReview': 'LocalSubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectRulesReview': 'SelfSubjectRulesReview',
  'authentication.k8s.io/v1/SelfSubjectReview': 'SelfSubjectReview',
  'authentication.k8s.io/v1/TokenRequest': 'TokenRequest',
};
